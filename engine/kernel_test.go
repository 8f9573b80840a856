package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestWalkEveryPrefix runs the kernel from every valid prefix of every
// length, the whole board and the rows just above the last included (where
// the last-rows count and the lookahead take over), against the slow
// reference: the assembly kernel where there is one, else the Go one.
func TestWalkEveryPrefix(t *testing.T) {
	for n := 1; n <= 10; n++ {
		var visit func(prefix []int, s start)
		visit = func(prefix []int, s start) {
			sols, _ := walk(s)
			assert.Equal(t, reference.CountPrefix(n, prefix), sols, "n=%d prefix %v", n, prefix)
			free := ^(s.Cols | s.LD | s.RD)
			for c := 0; c < n; c++ {
				if free&(1<<c) != 0 {
					visit(append(prefix, c), s.place(1<<c))
				}
			}
		}
		visit(nil, emptyStart(n))
	}
}
