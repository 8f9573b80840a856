package engine_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/partition"
)

// boards are the pieces' boards the tests count: the piece and the torus.
var boards = []struct {
	piece partition.Piece
	torus bool
	name  string
}{
	{partition.Superqueen, false, "superqueen"},
	{partition.King, false, "king"},
	{partition.Knight, false, "knight"},
	{partition.Queen, true, "queen torus"},
	{partition.Rook, false, "rook"},
}

func countPieces(t *testing.T, n int, piece partition.Piece, torus bool) uint64 {
	t.Helper()
	p, err := partition.Make(partition.Job{N: n, Piece: piece, Torus: torus})
	require.NoError(t, err)
	c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
	require.NoError(t, err)
	require.Zero(t, c.Total.Hi)
	return c.Total.Lo
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
// afford (kings, the least constrained, to n = 12).
func TestPiecesKnown(t *testing.T) {
	limit := map[string]int{"superqueen": 16, "king": 12, "queen torus": 15}
	if testing.Short() {
		limit = map[string]int{"superqueen": 12, "king": 10, "queen torus": 13}
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

// TestRooks counts rooks in closed form, exactly past 2^64 (n! to the
// largest n whose count fits in 128 bits), against n! and, up to n = 11
// (9 with -short), against the pieces' search kernel run without the
// closed form.
func TestRooks(t *testing.T) {
	searched := 11
	if testing.Short() {
		searched = 9
	}
	f := big.NewInt(1)
	for n := 0; n <= partition.MaxRookN; n++ {
		if n > 0 {
			f.Mul(f, big.NewInt(int64(n)))
		}
		p, err := partition.Make(partition.Job{N: n, Piece: partition.Rook})
		require.NoError(t, err)
		c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, f.String(), c.Total.String(), "n=%d", n)
		if n <= searched {
			assert.Equal(t, f.Uint64(), engine.SearchPieces(p), "n=%d: search", n)
		}
	}
	_, err := partition.Make(partition.Job{N: partition.MaxRookN + 1, Piece: partition.Rook})
	assert.ErrorIs(t, err, partition.ErrSize)
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
		assert.Equal(t, reference.CountShortRange(n, "knight"), countPieces(t, n, partition.Knight, false), "n=%d", n)
	}
}
