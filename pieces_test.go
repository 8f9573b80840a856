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
		opts  []CountOption
		n     int
		total uint64
	}{
		{"superqueen", []CountOption{WithPiece(Superqueen)}, 12, known.Pieces["superqueen"].Total[12]},
		{"king", []CountOption{WithPiece(King)}, 10, known.Pieces["king"].Total[10]},
		{"knight", []CountOption{WithPiece(Knight)}, 8, reference.CountPieces(8, "knight", false)},
		{"queen torus", []CountOption{WithTorus()}, 13, known.Pieces["queen torus"].Total[13]},
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
		opts []CountOption
		want string
	}{
		{[]CountOption{WithPiece("bishop")}, `WithPiece("bishop") is not a piece (accepted: queen, superqueen, king, knight, rook)`},
		{[]CountOption{WithPiece(King), WithTorus()}, "WithTorus works with queens only"},
		{[]CountOption{WithPiece(Knight), WithMethod(Sym)}, "WithPiece(knight) is counted with WithMethod(mirror) only"},
		{[]CountOption{WithTorus(), WithMethod(Join)}, "WithTorus is counted with WithMethod(mirror) only"},
		{[]CountOption{WithPiece(Superqueen), WithCheck()}, "WithPiece(superqueen) has one method only"},
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
	c, err := Count(ctx, 11, WithPiece(Superqueen), withJournal(&j, "j"))
	require.NoError(t, err)
	assert.Contains(t, string(j.data[:bytes.IndexByte(j.data, '\n')]), " piece=superqueen ")
	c2, err := Count(ctx, 11, WithPiece(Superqueen), withJournal(&j, "j"))
	require.NoError(t, err)
	assert.Equal(t, c.Total, c2.Total)
	assert.Equal(t, c2.Tasks, c2.Resumed)
	_, err = Count(ctx, 11, WithMethod(Mirror), withJournal(&memJournal{data: slices.Clone(j.data)}, "j"))
	assert.ErrorContains(t, err, "belongs to another count")

	var files []File
	for i := range 3 {
		var out bytes.Buffer
		_, err := Count(ctx, 11, WithTorus(), WithShard(i, 3, &out))
		require.NoError(t, err)
		files = append(files, File{Name: fmt.Sprintf("t%d", i), R: bytes.NewReader(out.Bytes())})
	}
	m, err := Merge(context.Background(), files...)
	require.NoError(t, err)
	assert.Equal(t, "88", m.Total.String())
	assert.True(t, m.Torus)
}

// TestPiecesBoards lists, solves and counts with placed pieces against the
// brute force: every solution in order, the first one, the ones holding
// the placed pieces.
func TestPiecesBoards(t *testing.T) {
	ctx := context.Background()
	for _, b := range []struct {
		piece Piece
		torus bool
		n     int
	}{{Superqueen, false, 10}, {King, false, 6}, {Knight, false, 5}, {Queen, true, 7}} {
		opts := []PieceOption{WithPiece(b.piece)}
		if b.torus {
			opts = append(opts, WithTorus())
		}
		var want [][]int
		reference.PieceSolutions(b.n, string(b.piece), b.torus, func(cols []int) bool {
			want = append(want, slices.Clone(cols))
			return true
		})
		var got [][]int
		for cols, err := range List(ctx, b.n, as[BoardOption](opts)...) {
			require.NoError(t, err)
			got = append(got, slices.Clone(cols))
		}
		assert.Equal(t, want, got, "%s torus=%v n=%d: List", b.piece, b.torus, b.n)
		first, err := Solve(ctx, b.n, as[BoardOption](opts)...)
		require.NoError(t, err)
		if !b.torus { // the torus's solution is constructed, not searched
			assert.Equal(t, want[0], first, "Solve")
		}
		assert.NoError(t, Verify(first, as[VerifyOption](opts)...))

		// Placed pieces: the solutions holding each square of row 1.
		for c := 0; c < b.n; c++ {
			sq := Square{Row: 1, Col: c}
			var holding uint64
			for _, w := range want {
				if w[1] == c {
					holding++
				}
			}
			got, err := Count(ctx, b.n, append(as[CountOption](opts), WithPlaced(sq))...)
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprint(holding), got.Total.String(), "%s torus=%v n=%d placed %v", b.piece, b.torus, b.n, sq)
		}
	}
}

// TestVerifyPieces names the first conflict of other pieces' boards.
func TestVerifyPieces(t *testing.T) {
	for _, tc := range []struct {
		cols []int
		opts []VerifyOption
		want string
	}{
		{[]int{0, 2, 4, 1, 3}, []VerifyOption{WithPiece(King)}, ""},
		{[]int{0, 2, 4, 1, 3}, []VerifyOption{WithPiece(Knight)}, "rows 0 and 1 are a knight's move apart"},
		{[]int{1, 0, 2}, []VerifyOption{WithPiece(King)}, "rows 0 and 1 are on neighbouring squares"},
		{[]int{0, 3, 1, 4, 2}, []VerifyOption{WithPiece(Knight)}, "rows 0 and 2 are a knight's move apart"},
		{[]int{0, 2, 4, 1, 3}, []VerifyOption{WithTorus()}, ""},
		{[]int{0, 3, 1, 4, 2}, []VerifyOption{WithTorus()}, ""},
		{[]int{1, 3, 0, 2}, []VerifyOption{WithTorus()}, "rows 1 and 2 share a diagonal"}, // 1-3 ≡ 2-0 (mod 4)
		{[]int{1, 3, 0, 2}, nil, ""},
		{[]int{0, 2, 0}, []VerifyOption{WithPiece(King)}, "rows 0 and 2 share column 0"},
		{[]int{-1, 2}, []VerifyOption{WithPiece(Superqueen)}, "row 0 has no superqueen"},
	} {
		err := Verify(tc.cols, tc.opts...)
		if tc.want == "" {
			assert.NoError(t, err, "%v", tc.cols)
		} else {
			assert.EqualError(t, err, tc.want, "%v", tc.cols)
		}
	}
}

// TestWideTotals resumes and merges counts whose tasks hold more than 2^64
// and 2^128 solutions each (rooks on 30 and 64 rows, 64 kings in one
// closed-form task): the records carry totals of up to 320 bits, and
// Counts, journals, shard files and Merge keep them exact.
func TestWideTotals(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n     int
		piece Piece
		want  string
	}{
		{30, Rook, "265252859812191058636308480000000"},                                                          // 30!
		{64, Rook, "126886932185884164103433389335161480802865516174545192198801894375214704230400000000000000"}, // 64!
		{64, King, reference.Kings(64).String()},                                                                 // an independent formula
	} {
		var j memJournal
		c, err := Count(ctx, tc.n, WithPiece(tc.piece), withJournal(&j, "j"))
		require.NoError(t, err)
		assert.Equal(t, tc.want, c.Total.String(), "%d %s", tc.n, tc.piece)
		assert.Equal(t, tc.want, c.Total.Big().String())
		_, fits := c.Total.Uint64()
		assert.False(t, fits)
		c, err = Count(ctx, tc.n, WithPiece(tc.piece), withJournal(&j, "j"))
		require.NoError(t, err)
		assert.Equal(t, tc.want, c.Total.String(), "%d %s resumed", tc.n, tc.piece)
		assert.Equal(t, c.Tasks, c.Resumed, "every task from the journal")

		var files []File
		for i := range 4 {
			var out bytes.Buffer
			_, err := Count(ctx, tc.n, WithPiece(tc.piece), WithShard(i, 4, &out))
			require.NoError(t, err)
			files = append(files, File{Name: fmt.Sprintf("r%d", i), R: bytes.NewReader(out.Bytes())})
		}
		m, err := Merge(context.Background(), files...)
		require.NoError(t, err)
		assert.Equal(t, tc.want, m.Total.String(), "%d %s merged", tc.n, tc.piece)
	}

	// Placed rooks keep their rows and columns: (n-k)! arrangements.
	c, err := Count(ctx, 8, WithPiece(Rook), WithPlaced(Square{Row: 0, Col: 0}, Square{Row: 5, Col: 3}))
	require.NoError(t, err)
	assert.Equal(t, "720", c.Total.String())
}

// TestConstructTorus checks the torus construction for every n to 300:
// a valid board exactly for n coprime to 6, as Pólya proved.
func TestConstructTorus(t *testing.T) {
	for n := 0; n <= 300; n++ {
		cols := constructTorus(n)
		coprime := n%2 != 0 && n%3 != 0 || n == 0
		if !coprime {
			assert.Nil(t, cols, "n=%d", n)
			_, err := Solve(context.Background(), n, WithTorus())
			assert.ErrorIs(t, err, ErrNoSolution, "n=%d", n)
			continue
		}
		require.Len(t, cols, n)
		assert.NoError(t, Verify(cols, WithTorus()), "n=%d", n)
		if n > 0 && n < 20 {
			assert.Positive(t, known.Pieces["queen torus"].Total[n], "n=%d has torus solutions", n)
		}
	}
}
