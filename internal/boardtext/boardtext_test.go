package boardtext_test

import (
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/boardtext"
	"github.com/nqueens/nqueens/internal/long"
)

// boards reads every board of text.
func boards(t *testing.T, text string) ([][]int, error) {
	t.Helper()
	r := boardtext.NewReader(strings.NewReader(text))
	var got [][]int
	for {
		cols, err := r.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, append([]int(nil), cols...))
	}
}

// TestReader reads stdin's text board by board as verify does.
func TestReader(t *testing.T) {
	got, err := boards(t, "1 3 0 2\n. Q\nQ .\n\n\nQ.\n.Q\n2 0 3 1\r\n  Q Q \r\n . . \n1,0")
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 3, 0, 2}, {1, 0}, {0, 1}, {2, 0, 3, 1}, {-2, -1}, {1, 0}}, got)
	for text, want := range map[string]string{
		".Q..":                             "1 row of 4 squares (a board has as many rows as columns)",
		".Q.\n..Q\nQ..\n...":               "row 3 is one too many: the rows have 3 squares",
		".Q\n...":                          "row 1 has 3 squares or more, want 2 (every row as long as the first)",
		"..\n.":                            "row 1 has 1 square, want 2",
		".#":                               "row 0: unexpected '#'",
		"1 3 0 x":                          `column "x" of row 3 is not an integer`,
		"1,3,,0,2":                         `an empty column between commas in "1,3,,0,2"`,
		"1,3,":                             `an empty column between commas in "1,3,"`,
		"1 3 0 4":                          "column 4 of row 3 is off the 4×4 board (accepted: 0..3)",
		"99999999999":                      `column 99999999999 of row 0 is off the 1×1 board`,
		"0 123456789012345678901234567890": `column "123456789012345678901234"… of row 1 is not an integer`,
	} {
		_, err := boards(t, text)
		require.ErrorIs(t, err, boardtext.ErrSyntax, "%q", text)
		assert.Contains(t, err.Error(), want, "%q", text)
	}
	_, err = boards(t, "1,,"+strings.Repeat("2", 200))
	assert.Contains(t, err.Error(), `"1,,`+strings.Repeat("2", 76)+`"…`, "a long line quoted by its head")
}

// endless is an endless stream of unit, counting the bytes read.
type endless struct {
	unit string
	read int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.unit[(e.read+i)%len(e.unit)]
	}
	e.read += len(p)
	return len(p), nil
}

// TestReaderBounded: endless input is refused as soon as it cannot be a
// board, having read no more than the largest board's text, holding at
// most that board's columns ('yes . | nqueens verify'
// grew past 1.4 GB in 8 s).
func TestReaderBounded(t *testing.T) {
	long.SkipRace(t) // ten million columns: 51 s under the race detector
	for _, tc := range []struct {
		unit, want string
		most       int // bytes it may read
	}{
		{".\n", "row 1 is one too many: the rows have 1 square", 1 << 16},
		{"..\n", "row 2 is one too many", 1 << 16},
		{".", "row 0 has more than 10000000 squares", boardtext.MaxN + 1<<16},
		{"Q ", "row 0 has more than 10000000 squares", 2*boardtext.MaxN + 1<<16},
		{"0 ", "more than 10000000 columns", 2*boardtext.MaxN + 1<<16},
		{"0,", "more than 10000000 columns", 2*boardtext.MaxN + 1<<16},
	} {
		e := &endless{unit: tc.unit}
		_, err := boardtext.NewReader(e).Next()
		require.ErrorIs(t, err, boardtext.ErrSyntax, "%q", tc.unit)
		assert.Contains(t, err.Error(), tc.want, "%q", tc.unit)
		assert.LessOrEqual(t, e.read, tc.most, "%q: bytes read", tc.unit)
	}
	// A board of the largest size is read, and one more column refused.
	var b strings.Builder
	for i := range boardtext.MaxN {
		b.WriteString(strconv.Itoa(boardtext.MaxN - 1 - i))
		b.WriteByte(' ')
	}
	line := b.String()
	cols, err := boardtext.Parse(line)
	require.NoError(t, err)
	assert.Len(t, cols, boardtext.MaxN)
	_, err = boardtext.Parse(line + "0")
	assert.ErrorContains(t, err, "more than 10000000 columns (accepted: boards of at most 10000000 rows)")
}

// TestParse reads one argument's board.
func TestParse(t *testing.T) {
	cols, err := boardtext.Parse("1,3,0,2")
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3, 0, 2}, cols)
	_, err = boardtext.Parse(" \n ")
	assert.ErrorContains(t, err, "empty board")
	_, err = boardtext.Parse("0\n0")
	assert.ErrorContains(t, err, "more than one board in one argument")
	// Squares, as --place takes them: chess squares or row:col pairs, one
	// a queen, as many rows as squares; a row with none or several.
	for in, want := range map[string][]int{
		"b1,d2,a3,c4":     {1, 3, 0, 2},
		"B1 d2 A3 c4":     {1, 3, 0, 2},
		"0:1,1:3,2:0,3:2": {1, 3, 0, 2},
		"a1,b1,c3":        {-2, -1, 2},
		"a1, 1:1":         {0, 1},
	} {
		cols, err := boardtext.Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, cols, in)
	}
	for in, want := range map[string]string{
		"a1,3":      `"3" is not a square (accepted: a line of squares like a1,b3,c5`,
		"a1,b0":     `"b0" is not a square`,
		"a1,c1":     "square c1 is off the board: a line of 2 squares is a 2×2 board (accepted: a..b, 1..2)",
		"a1,b9":     "square b9 is off the board: a line of 2 squares is a 2×2 board",
		"a1,,b2":    "an empty column between commas",
		"a1,b2\x1b": `is not a square`,
	} {
		_, err := boardtext.Parse(in)
		assert.ErrorIs(t, err, boardtext.ErrSyntax, in)
		assert.ErrorContains(t, err, want, in)
	}
}

// FuzzParseBoard: any text is a board or an error, never a panic; a board
// has a column (or -1, -2) per row, and Verify judges it.
func FuzzParseBoard(f *testing.F) {
	for _, s := range []string{"1 3 0 2", "1,3,0,2", ". Q . .\n. . . Q\nQ . . .\n. . Q .", "Q.\n.Q", "", "\r\n", "1 3 x", "Q Q\n. .", "0 0", "-1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		cols, err := boardtext.Parse(text)
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("message of %d bytes", len(err.Error()))
			}
			return
		}
		for _, c := range cols {
			if c < -2 || c >= len(cols) {
				t.Fatalf("column %d of a %d-row board", c, len(cols))
			}
		}
		_ = nqueens.Verify(cols)
	})
}
