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
