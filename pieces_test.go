package nqueens

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/reference"
)

// TestCountPieces counts each piece's board through the library: the
// published totals, the knights against the brute force, unique absent.
func TestCountPieces(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		opts  []Option
		n     int
		total uint64
	}{
		{"superqueen", []Option{WithPiece(Superqueen)}, 12, known.Pieces["superqueen"].Total[12]},
		{"king", []Option{WithPiece(King)}, 10, known.Pieces["king"].Total[10]},
		{"knight", []Option{WithPiece(Knight)}, 8, reference.CountPieces(8, "knight", false)},
		{"queen torus", []Option{WithTorus()}, 13, known.Pieces["queen torus"].Total[13]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Count(ctx, tc.n, append(tc.opts, WithWorkers(2))...)
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprint(tc.total), c.Total.String())
			assert.Equal(t, Mirror, c.Method)
			_, ok := c.Unique()
			assert.False(t, ok, "mirror: no unique count")
		})
	}
}

// TestPiecesInvalid refuses what pieces do not combine with.
func TestPiecesInvalid(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		opts []Option
		want string
	}{
		{[]Option{WithPiece("bishop")}, `unknown piece "bishop" (accepted: queen, superqueen, king, knight)`},
		{[]Option{WithPiece(King), WithTorus()}, "the torus works with queens only"},
		{[]Option{WithPiece(Knight), WithMethod(Sym)}, "knight boards are counted with the mirror method only"},
		{[]Option{WithTorus(), WithMethod(Join)}, "queen torus boards are counted with the mirror method only"},
		{[]Option{WithPiece(King), WithPlaced(Square{Row: 0, Col: 1})}, "pieces placed in advance work with queens only"},
		{[]Option{WithPiece(Superqueen), WithCheck()}, "superqueen boards have one method"},
	} {
		_, err := Count(ctx, 8, tc.opts...)
		assert.ErrorIs(t, err, ErrInvalid, tc.want)
		assert.ErrorContains(t, err, tc.want)
	}
}

// TestPiecesJournalShards resumes a piece's count from its journal, keeps
// it apart from the queens' journal, and merges a piece's shards.
func TestPiecesJournalShards(t *testing.T) {
	ctx := context.Background()
	var j memJournal
	c, err := Count(ctx, 11, WithPiece(Superqueen), WithJournal(&j, "j"))
	require.NoError(t, err)
	assert.Contains(t, string(j.data[:bytes.IndexByte(j.data, '\n')]), " piece=superqueen ")
	c2, err := Count(ctx, 11, WithPiece(Superqueen), WithJournal(&j, "j"))
	require.NoError(t, err)
	assert.Equal(t, c.Total, c2.Total)
	assert.Equal(t, c2.Tasks, c2.Resumed)
	_, err = Count(ctx, 11, WithMethod(Mirror), WithJournal(&memJournal{data: slices.Clone(j.data)}, "j"))
	assert.ErrorContains(t, err, "belongs to another count")

	var files []File
	for i := range 3 {
		var out bytes.Buffer
		_, err := Count(ctx, 11, WithTorus(), WithShard(i, 3, &out))
		require.NoError(t, err)
		files = append(files, File{Name: fmt.Sprintf("t%d", i), R: bytes.NewReader(out.Bytes())})
	}
	m, err := Merge(files...)
	require.NoError(t, err)
	assert.Equal(t, "88", m.Total.String())
	assert.True(t, m.Torus)
}
