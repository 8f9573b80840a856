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

// TestStatusSummary: a status of many shards reads as a summary (shards
// done, in progress and missing as ranges, the furthest behind) with no
// line per shard unless asked (two files of 100,000
// shards printed 100,004 lines).
func TestStatusSummary(t *testing.T) {
	r := nqueens.StatusReport{N: 22, Method: nqueens.Join, Shards: 100_000, PerShard: make([]nqueens.ShardStatus, 100_000)}
	for i := range r.PerShard {
		s := &r.PerShard[i]
		s.Shard, s.Tasks, s.Work = i, 2, 2
		switch i {
		case 0, 1:
			s.TasksDone, s.WorkDone, s.Files = 2, 2, []string{"done.result"}
		case 7:
			s.TasksDone, s.WorkDone, s.Files = 1, 1, []string{"s7.journal"}
		case 9:
			s.Files = []string{"s9.journal"}
		default:
			r.Missing = append(r.Missing, i)
		}
	}
	var b strings.Builder
	if err := WriteStatus(&b, r, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"done: 2 of 100000 shards: 0-1\n",
		"in progress: 2 of 100000 shards: 7, 9\n",
		"no file yet: 99996 of 100000 shards: 2-6, 8, 10-99999\n",
		"furthest behind: 9 (0.0%, ETA unknown), 7 (50.0%, ETA unknown)\n",
		"(100000 shards: --per-shard lists each, --json gives them all)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n > 12 {
		t.Errorf("status of 100,000 shards is %d lines, want a summary", n)
	}
	b.Reset()
	WriteStatus(&b, r, true)
	if n := strings.Count(b.String(), "\n"); n < 100_000 {
		t.Errorf("--per-shard gave %d lines", n)
	}
}

// TestInterval: an interval whose ends print the same says nothing (it
// had read "95%: 11.2 core-minutes to 11.2 core-minutes").
func TestInterval(t *testing.T) {
	assert.Equal(t, "", Interval(" (95%%: %s to %s)", 671, 673))
	assert.Equal(t, " (95%: 11.2 core-minutes to 12.5 core-minutes)", Interval(" (95%%: %s to %s)", 672, 750))
	assert.Equal(t, ", 95% between 2.3 core-hours and 2.6 core-hours", Interval(", 95%% between %s and %s", 2.3*3600, 2.6*3600))
}
