package reference

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/internal/known"
)

// TestShortRange checks the row sweep against the backtracking brute force
// for kings and knights, and against the published kings' totals
// (A002464) to n = 14.
func TestShortRange(t *testing.T) {
	for _, piece := range []string{"king", "knight"} {
		for n := 0; n <= 8; n++ {
			assert.Equal(t, CountPieces(n, piece, false), CountShortRange(n, piece), "%s n=%d", piece, n)
		}
	}
	kings := known.Pieces["king"].Total
	for n := range kings {
		assert.Equal(t, kings[n], CountShortRange(n, "king"), "A002464(%d)", n)
	}
}
