package engine_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// boards are the pieces' boards the tests count: the piece and the torus.
var boards = []struct {
	piece board.Piece
	torus bool
	name  string
}{
	{board.Superqueen, false, "superqueen"},
	{board.King, false, "king"},
	{board.Knight, false, "knight"},
	{board.Queen, true, "queen torus"},
	{board.Rook, false, "rook"},
}

func countPieces(t *testing.T, n int, piece board.Piece, torus bool) uint64 {
	t.Helper()
	p, err := partition.Make(context.Background(), partition.Job{N: n, Piece: piece, Torus: torus})
	require.NoError(t, err)
	c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
	require.NoError(t, err)
	total, ok := c.Total.Uint64()
	require.True(t, ok)
	return total
}

// TestPiecesAgainstReference counts every piece's board, mirror-halved
// tasks and all, against the brute force that checks every square against
// every piece, to n = 10 (8 with -short).
func TestPiecesAgainstReference(t *testing.T) {
	limit := 10
	if testing.Short() {
		limit = 8
	}
	for _, b := range boards {
		for n := 0; n <= limit; n++ {
			assert.Equal(t, reference.CountPieces(n, string(b.piece), b.torus), countPieces(t, n, b.piece, b.torus), "%s n=%d", b.name, n)
		}
	}
}

// TestPiecesKnown checks the published totals, as far as the tests can
// afford (kings, in closed form, to the published list's n = 14).
func TestPiecesKnown(t *testing.T) {
	limit := map[string]int{"superqueen": 16, "king": 14, "queen torus": 15}
	if testing.Short() {
		limit = map[string]int{"superqueen": 12, "king": 14, "queen torus": 13}
	}
	for _, b := range boards {
		k, ok := known.Pieces[b.name]
		if !ok || k.Total == nil {
			continue // knights: no published sequence; rooks: TestRooks
		}
		for n := 0; n <= limit[b.name]; n++ {
			t.Run(fmt.Sprintf("%s/n=%d", b.name, n), func(t *testing.T) {
				assert.Equal(t, k.Total[n], countPieces(t, n, b.piece, b.torus))
			})
		}
	}
}

// TestRooks counts rooks in closed form, exactly past 2^64 and 2^128 (n!
// to n = MaxN), against n! (and 64! as Python computes it) and, up to n = 11
// (9 with -short), against the pieces' search kernel run without the
// closed form.
func TestRooks(t *testing.T) {
	searched := 11
	if testing.Short() {
		searched = 9
	}
	f := big.NewInt(1)
	for n := 0; n <= partition.MaxN; n++ {
		if n > 0 {
			f.Mul(f, big.NewInt(int64(n)))
		}
		p, err := partition.Make(context.Background(), partition.Job{N: n, Piece: board.Rook})
		require.NoError(t, err)
		c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, f.String(), c.Total.String(), "n=%d", n)
		if n <= searched {
			assert.Equal(t, f.Uint64(), engine.SearchPieces(p), "n=%d: search", n)
		}
	}
	assert.Equal(t, "126886932185884164103433389335161480802865516174545192198801894375214704230400000000000000", f.String(), "64! (A000142)")
	_, err := partition.Make(context.Background(), partition.Job{N: partition.MaxN + 1, Piece: board.Rook})
	assert.ErrorIs(t, err, board.ErrSize)
}

// TestKnights counts knights, which no published sequence lists, against
// the row sweep of internal/reference (a second method) to n = 12 (10
// with -short).
func TestKnights(t *testing.T) {
	limit := 12
	if testing.Short() {
		limit = 10
	}
	for n := 0; n <= limit; n++ {
		assert.Equal(t, reference.CountShortRange(n, "knight"), countPieces(t, n, board.Knight, false), "n=%d", n)
	}
}

// TestKings checks the kings' closed form (A002464's recurrence) against
// an independent formula, n! + Σ_{k=1}^{n-1} (−1)^k (n−k)! Σ_{r=1}^{k} 2^r
// C(n−k, r) C(k−1, r−1), for every n it counts, against a value of the
// published sequence beyond the tests' search (a(23)), and against the
// pieces' search kernel without the closed form (a plan that lists, one
// task per two-row prefix, without the mirror's halving) to n = 12 (11
// with -short; the published list covers 13 and 14); to n = MaxN, past
// 128 bits from n = 35 on.
func TestKings(t *testing.T) {
	formula := reference.Kings
	for n := 0; n <= partition.MaxN; n++ {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Piece: board.King})
		require.NoError(t, err)
		require.Len(t, p.Tasks, 1, "n=%d: one closed-form task", n)
		c, err := engine.Run(context.Background(), p, engine.Options{Workers: 1})
		require.NoError(t, err)
		assert.Equal(t, formula(n).String(), c.Total.String(), "A002464(%d)", n)
	}
	assert.Equal(t, 1, formula(35).Cmp(new(big.Int).Lsh(big.NewInt(1), 128)), "A002464(35) > 2^128: counted exactly beyond 128 bits")
	assert.Equal(t, "3484423186862152966838", formula(23).String(), "A002464(23) as published")
	_, err := partition.Make(context.Background(), partition.Job{N: partition.MaxN + 1, Piece: board.King})
	assert.ErrorIs(t, err, board.ErrSize)

	searched := 12
	if testing.Short() {
		searched = 11
	}
	for n := 0; n <= searched; n++ {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Piece: board.King, Every: true})
		require.NoError(t, err)
		c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, formula(n).String(), c.Total.String(), "kings n=%d by search", n)
	}
}

// TestKnightsSweep checks the knights' row sweep against the pieces'
// search kernel without it (a plan that lists) to n = 12 (10 with
// -short), and the sweep itself under the kings' rules against their
// closed form to n = 16: two independent methods each.
func TestKnightsSweep(t *testing.T) {
	searched := 12
	if testing.Short() {
		searched = 10
	}
	for n := 0; n <= searched; n++ {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Piece: board.Knight})
		require.NoError(t, err)
		require.Len(t, p.Tasks, 1, "n=%d: one sweep task", n)
		require.Equal(t, board.Sweep, p.Tasks[0].Kind)
		swept, err := engine.Run(context.Background(), p, engine.Options{Workers: 1})
		require.NoError(t, err)
		p, err = partition.Make(context.Background(), partition.Job{N: n, Piece: board.Knight, Every: true})
		require.NoError(t, err)
		searchedCount, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, searchedCount.Total, swept.Total, "knights n=%d: sweep against search", n)
	}
	for n := 0; n <= 16; n++ {
		assert.Equal(t, engine.Kings(n), wide.Of(engine.SweepRows(n, board.King.Rules(false))), "kings n=%d: sweep against the recurrence", n)
	}
	p, err := partition.Make(context.Background(), partition.Job{N: board.MaxSweepN + 1, Piece: board.Knight})
	require.NoError(t, err)
	assert.NotEqual(t, board.Sweep, p.Tasks[0].Kind, "beyond MaxSweepN knights are searched")
}

// TestPiecesTwins checks the pieces' array kernels (walkShort, and
// walkTorus for queens on the torus) against their twin task by task,
// completions and nodes, for every board, with and without placed pieces
// and for listing plans.
func TestPiecesTwins(t *testing.T) {
	maxN := 11
	if testing.Short() {
		maxN = 9
	}
	// The pieces without the torus, then queens on the torus (two sizes
	// further: their plans are smaller), whole and listing plans and with
	// a placed piece.
	boards := []struct {
		piece board.Piece
		torus bool
		maxN  int
	}{{board.Superqueen, false, maxN}, {board.King, false, maxN}, {board.Knight, false, maxN},
		{board.Rook, false, maxN}, {board.Queen, true, maxN + 2}}
	for _, b := range boards {
		for n := 0; n <= b.maxN; n++ {
			jobs := []partition.Job{
				{N: n, Piece: b.piece, Torus: b.torus, Every: true},
				{N: n, Piece: b.piece, Torus: b.torus, Placed: []board.Square{{Row: n / 2, Col: n / 3}}},
			}
			if b.torus {
				jobs = append(jobs, partition.Job{N: n, Piece: b.piece, Torus: true})
			}
			for _, job := range jobs {
				if n == 0 && len(job.Placed) > 0 {
					continue
				}
				p, err := partition.Make(context.Background(), job)
				require.NoError(t, err)
				assert.Equal(t, -1, engine.PiecesTwins(p), "%s torus %v n=%d placed %v every %v", b.piece, b.torus, n, job.Placed, job.Every)
			}
		}
	}
}
