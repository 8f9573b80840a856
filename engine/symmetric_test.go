package engine

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/internal/reference"
)

// TestSymmetricSearches checks countPointSym and countRot90Sym for every
// column of the row-0 queen against the slow reference's solutions, each
// compared with its own 180° and 90° rotations.
func TestSymmetricSearches(t *testing.T) {
	for n := 0; n <= 10; n++ {
		point := make([]uint64, max(n, 1))
		rot90 := make([]uint64, max(n, 1))
		reference.Solutions(n, func(s []int) bool {
			r180 := make([]int, n)
			r90 := make([]int, n)
			for r, c := range s {
				r180[n-1-r] = n - 1 - c
				r90[c] = n - 1 - r // (r, c) turns to (c, n-1-r)
			}
			first := 0
			if n > 0 {
				first = s[0]
			}
			if slices.Equal(s, r180) {
				point[first]++
			}
			if slices.Equal(s, r90) {
				rot90[first]++
			}
			return true
		})
		for c := range point {
			p, _ := countPointSym(n, c)
			q, _ := countRot90Sym(n, c)
			assert.Equal(t, point[c], p, "n=%d point-symmetric, row-0 queen in column %d", n, c)
			assert.Equal(t, rot90[c], q, "n=%d rot90-symmetric, row-0 queen in column %d", n, c)
		}
	}
}
