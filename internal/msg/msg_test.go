package msg

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
	assert.Equal(t, `"abc"`, Quote("abc"))
	long := Quote(strings.Repeat("x", 5<<20))
	assert.Less(t, len(long), MaxQuote+8)
	assert.True(t, strings.HasSuffix(long, `"…`))
}
