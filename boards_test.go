package nqueens

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/reference"
)

// isSolution is an independent check: a permutation with no two queens on
// one diagonal, with maps instead of conflict's arrays.
func isSolution(cols []int) bool {
	n := len(cols)
	seen := map[int]bool{}
	sum, diff := map[int]bool{}, map[int]bool{}
	for r, c := range cols {
		if c < 0 || c >= n || seen[c] || sum[r+c] || diff[r-c] {
			return false
		}
		seen[c], sum[r+c], diff[r-c] = true, true, true
	}
	return true
}

func TestConstruct(t *testing.T) {
	for n := 0; n <= 300; n++ {
		cols := construct(n)
		if n == 2 || n == 3 {
			assert.Nil(t, cols, "n=%d", n)
			continue
		}
		require.Len(t, cols, n)
		assert.True(t, isSolution(cols), "construct(%d) = %v is not a solution", n, cols)
	}
	assert.True(t, isSolution(construct(1_000_000)), "construct(1000000)")
	assert.True(t, isSolution(construct(1_000_003)), "construct(1000003)")
}

// TestConflictFirst checks that verify names the first conflict from the
// top, against a brute-force scan of all pairs.
func TestConflictFirst(t *testing.T) {
	for _, cols := range [][]int{{0, 0, 1, 2}, {3, 1, 2, 0}, {1, 3, 0, 2}, {2, 0, 1, 3}, {0, 2, 4, 1, 3}, {4, 3, 2, 1, 0}, {0, 3, 1, 4, 2}} {
		want := ""
	outer:
		for j := range cols {
			for i := 0; i < j; i++ {
				switch {
				case cols[i] == cols[j]:
					want = fmt.Sprintf("rows %d and %d share column %d", i, j, cols[i])
					break outer
				case cols[i]-cols[j] == i-j || cols[i]-cols[j] == j-i:
					want = fmt.Sprintf("rows %d and %d share a diagonal", i, j)
					break outer
				}
			}
		}
		got := ""
		if err := Verify(cols); err != nil {
			got = err.Error()
		}
		assert.Equal(t, want, got, "%v", cols)
	}
}

// TestVerifyReference: Verify names the same first conflict as a double
// loop over the pairs of rows with the reference's attack rules, for every
// board of n ≤ 6 (every row's piece in any column) and every piece.
func TestVerifyReference(t *testing.T) {
	boards := []struct {
		piece string
		torus bool
		opts  []VerifyOption
	}{
		{"queen", false, nil}, {"queen", true, []VerifyOption{WithTorus()}}, {"superqueen", false, []VerifyOption{WithPiece(Superqueen)}},
		{"king", false, []VerifyOption{WithPiece(King)}}, {"knight", false, []VerifyOption{WithPiece(Knight)}}, {"rook", false, []VerifyOption{WithPiece(Rook)}},
	}
	first := func(b []int, piece string, torus bool) (int, int) {
		for s := range b {
			for f := range s {
				if b[f] == b[s] || reference.Attack(len(b), piece, torus, f, b[f], s, b[s]) {
					return f, s
				}
			}
		}
		return -1, -1
	}
	for n := 0; n <= 6; n++ {
		cols := make([]int, n)
		for {
			for _, bd := range boards {
				f, s := first(cols, bd.piece, bd.torus)
				err := Verify(cols, bd.opts...)
				if f < 0 {
					require.NoError(t, err, "%s torus=%v %v", bd.piece, bd.torus, cols)
					continue
				}
				var c *Conflict
				require.ErrorAs(t, err, &c, "%s torus=%v %v", bd.piece, bd.torus, cols)
				require.Equal(t, [2]int{f, s}, [2]int{c.First, c.Second}, "%s torus=%v %v: %v", bd.piece, bd.torus, cols, c)
				if cols[f] == cols[s] {
					require.Equal(t, fmt.Sprintf("share column %d", cols[s]), c.What)
				}
			}
			k := 0
			for k < n && cols[k] == n-1 {
				cols[k] = 0
				k++
			}
			if k == n {
				break
			}
			cols[k]++
		}
	}
}
