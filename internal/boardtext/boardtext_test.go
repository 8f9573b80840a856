package boardtext_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/boardtext"
)

// TestSplit splits stdin's text into boards as verify reads it.
func TestSplit(t *testing.T) {
	var got []string
	for b, err := range boardtext.Split(strings.NewReader("1 3 0 2\n. Q\nQ .\n\n\nQ.\n.Q\n2 0 3 1")) {
		require.NoError(t, err)
		got = append(got, b)
	}
	assert.Equal(t, []string{"1 3 0 2", ". Q\nQ .", "Q.\n.Q", "2 0 3 1"}, got)
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
