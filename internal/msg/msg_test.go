package msg

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
	assert.Equal(t, `"abc"`, Quote("abc"))
	for _, long := range []string{strings.Repeat("x", 5<<20), strings.Repeat("\x01é\xff", 1000)} {
		q := Quote(long)
		assert.LessOrEqual(t, len(q), MaxQuote+len(`""…`), q)
		assert.True(t, strings.HasSuffix(q, `"…`), q)
	}
}

func TestRanges(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{3}, "3"},
		{[]int{3, 4}, "3-4"},
		{[]int{0, 2, 3, 4, 7}, "0, 2-4, 7"},
	} {
		if got := Ranges(tc.in); got != tc.want {
			t.Errorf("Ranges(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var big []int
	for i := range 100_000 {
		if i != 50_000 && i != 99_999 {
			big = append(big, i)
		}
	}
	if got, want := Ranges(big), "0-49999, 50001-99998"; got != want {
		t.Errorf("Ranges(99,998 shards) = %q, want %q", got, want)
	}
}
