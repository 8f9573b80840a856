package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
)

func TestSolutions(t *testing.T) {
	cols := []int{1, 3, 0, 2}
	assert.Equal(t, "1 3 0 2\n", string(Columns(nil, cols)))
	assert.Equal(t, ". Q . .\n. . . Q\nQ . . .\n. . Q .\n", string(Board(nil, cols)))
	assert.Equal(t, `{"n":4,"columns":[1,3,0,2]}`+"\n", string(JSON(nil, cols)))
}

// TestOf: the report holds the class counts exactly where the counts do.
func TestOf(t *testing.T) {
	for _, m := range []nqueens.Method{nqueens.Sym, nqueens.Mirror} {
		c, err := nqueens.Count(context.Background(), 8, nqueens.WithMethod(m))
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, WriteJSON(&b, Of(c)))
		var got map[string]any
		require.NoError(t, json.Unmarshal(b.Bytes(), &got))
		assert.Equal(t, "92", got["total"])
		if m == nqueens.Sym {
			assert.Equal(t, "12", got["unique"])
			assert.NotContains(t, got, "note")
		} else {
			assert.NotContains(t, got, "unique")
			assert.Contains(t, got["note"], "total only")
		}
	}
}

// TestTextWidths: the widths known before counting fit every published
// row, and a row beyond n = 27 gets a wider column.
func TestTextWidths(t *testing.T) {
	w := TextWidths(0, 27)
	assert.Equal(t, len("234907967154122528"), w[1])
	assert.Greater(t, TextWidths(0, 30)[1], w[1])
	var b bytes.Buffer
	tbl := &Table{Out: &b, Format: "text", From: 4, To: 8}
	require.NoError(t, tbl.Begin())
	for c, err := range nqueens.Table(context.Background(), 4, 8) {
		require.NoError(t, err)
		require.NoError(t, tbl.Row(c))
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	require.Len(t, lines, 6)
	for _, l := range lines {
		assert.Len(t, l, len(lines[0]), "aligned: %q", l)
	}
}
