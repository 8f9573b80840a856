package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/partition"
)

func sq(r, c int) board.Square { return board.Square{Row: r, Col: c} }

// refPlaced counts, with the slow reference, the solutions that contain
// every placed queen.
func refPlaced(n int, placed []board.Square) uint64 {
	var k uint64
	reference.Solutions(n, func(s []int) bool {
		for _, q := range placed {
			if s[q.Row] != q.Col {
				return true
			}
		}
		k++
		return true
	})
	return k
}

func countPlaced(t *testing.T, n int, placed []board.Square, workers int) uint64 {
	t.Helper()
	p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror, Placed: placed})
	require.NoError(t, err)
	c, err := engine.Run(context.Background(), p, engine.Options{Workers: workers})
	require.NoError(t, err)
	total, ok := c.Total.Uint64()
	require.True(t, ok)
	return total
}

// TestPlacedRandom checks counts with queens placed in advance against the
// slow reference for many random placements (n ≤ 12, 0–4 queens, distinct
// rows and columns, diagonal conflicts allowed).
func TestPlacedRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	trials := 300
	if testing.Short() {
		trials = 80
	}
	for range trials {
		n := 1 + rng.IntN(12)
		k := rng.IntN(min(n, 4) + 1)
		rows, cols := rng.Perm(n)[:k], rng.Perm(n)[:k]
		var placed []board.Square
		for i := range k {
			placed = append(placed, board.Square{Row: rows[i], Col: cols[i]})
		}
		want := refPlaced(n, placed)
		got := countPlaced(t, n, placed, 1+rng.IntN(3))
		assert.Equal(t, want, got, "n=%d placed=%v", n, placed)
	}
}

// TestPlacedSymmetric covers the placements the mirror halves: one queen in
// the middle column of an odd board, in every row, and no queen at all.
func TestPlacedSymmetric(t *testing.T) {
	for _, n := range []int{1, 5, 7, 9, 11} {
		for r := 0; r < n; r++ {
			placed := []board.Square{{Row: r, Col: n / 2}}
			assert.Equal(t, refPlaced(n, placed), countPlaced(t, n, placed, 2), "n=%d placed=%v", n, placed)
		}
	}
	// Placements that look symmetric but are not (180°, transposed).
	for _, placed := range [][]board.Square{{sq(0, 1), sq(9, 8)}, {sq(2, 3), sq(3, 2)}, {sq(4, 4)}, {sq(0, 4), sq(9, 5)}} {
		assert.Equal(t, refPlaced(10, placed), countPlaced(t, 10, placed, 2), "n=10 placed=%v", placed)
	}
}

func TestPlacedErrors(t *testing.T) {
	for _, tc := range []struct {
		placed []board.Square
		msg    string
	}{
		{[]board.Square{sq(8, 0)}, "off the 8×8 board"},
		{[]board.Square{sq(1, 1), sq(1, 1)}, "given twice"},
		{[]board.Square{sq(1, 1), sq(1, 4)}, "share row 1"},
		{[]board.Square{sq(1, 1), sq(5, 1)}, "share column 1"},
	} {
		_, err := partition.Make(context.Background(), partition.Job{N: 8, Method: partition.Mirror, Placed: tc.placed})
		assert.ErrorIs(t, err, board.ErrPlacement)
		assert.ErrorContains(t, err, tc.msg)
	}
	_, err := partition.Make(context.Background(), partition.Job{N: 8, Method: partition.Sym, Placed: []board.Square{sq(0, 0)}})
	assert.ErrorIs(t, err, partition.ErrPlacedMethod)
	// A diagonal conflict is a question with answer 0.
	placed := []board.Square{sq(0, 0), sq(3, 3)}
	a, b, ok := board.DiagonalConflict(placed)
	assert.True(t, ok)
	assert.Equal(t, [2]board.Square{sq(0, 0), sq(3, 3)}, [2]board.Square{a, b})
	assert.Zero(t, countPlaced(t, 8, placed, 2))
}

// TestEachOrder checks that Each lists every solution of a listing plan's
// tasks, in lexicographic order across tasks.
func TestEachOrder(t *testing.T) {
	for _, n := range []int{0, 1, 4, 8, 10} {
		var want []string
		reference.Solutions(n, func(s []int) bool {
			want = append(want, fmt.Sprint(s))
			return true
		})
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror, Every: true})
		require.NoError(t, err)
		var got []string
		for i := range p.Tasks {
			require.NoError(t, engine.EachSolution(context.Background(), p, i, func(cols []uint8) bool {
				ints := make([]int, len(cols))
				for i, c := range cols {
					ints[i] = int(c)
				}
				got = append(got, fmt.Sprint(ints))
				return true
			}))
		}
		assert.Equal(t, want, got, "n=%d", n)
		assert.True(t, slices.IsSorted(want))
	}
}

// TestEachStops checks that Each stops when yield says so, and refuses
// tasks that stand for more solutions than they search.
func TestEachStops(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 12, Method: partition.Mirror, Every: true})
	require.NoError(t, err)
	calls := 0
	for i := 0; calls == 0 && i < len(p.Tasks); i++ {
		require.NoError(t, engine.EachSolution(context.Background(), p, i, func([]uint8) bool { calls++; return false }))
	}
	assert.Equal(t, 1, calls, "stopped at the first solution")
	for _, m := range partition.Methods {
		q, err := partition.Make(context.Background(), partition.Job{N: 12, Method: m})
		require.NoError(t, err)
		i := len(q.Tasks) - 1
		assert.ErrorIs(t, engine.EachSolution(context.Background(), q, i, func([]uint8) bool { return true }), engine.ErrList, "%s", m)
	}
	assert.ErrorIs(t, engine.EachSolution(context.Background(), p, len(p.Tasks), func([]uint8) bool { return true }), engine.ErrPlan)
}
