package main

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/boardtext"
)

// TestSolveVerify runs solve and feeds its output to verify, as a user
// would pipe them, for n = 4..300 and 1,000,000.
func TestSolveVerify(t *testing.T) {
	ns := []int{1_000_000}
	for n := 4; n <= 300; n++ {
		ns = append(ns, n)
	}
	for _, n := range ns {
		format := "board"
		if n > 64 {
			format = "columns"
		}
		out, _ := runOK(t, "solve", strconv.Itoa(n), "--format", format)
		cols, err := boardtext.Parse(out)
		require.NoError(t, err, "n=%d", n)
		require.True(t, nqueens.Verify(cols) == nil, "n=%d", n)
		var vout, verr bytes.Buffer
		root := []string{"verify"}
		cmdErr := runWithStdin(out, root, &vout, &verr)
		require.NoError(t, cmdErr, "verify of solve %d: %s", n, verr.String())
		assert.Equal(t, "valid\n", vout.String())
	}
}

func TestListEight(t *testing.T) {
	out, _ := runOK(t, "list", "8")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 92)
	assert.True(t, slices.IsSorted(lines), "sorted")
	assert.Len(t, slices.Compact(slices.Clone(lines)), 92, "distinct")
	for _, l := range lines {
		cols, err := boardtext.Parse(l)
		require.NoError(t, err)
		assert.True(t, nqueens.Verify(cols) == nil, l)
	}
	out, _ = runOK(t, "list", "10")
	assert.Equal(t, 724, strings.Count(out, "\n"))
	first10 := strings.SplitN(out, "\n", 6)[:5]
	out, _ = runOK(t, "list", "10", "--limit", "5", "--board")
	assert.False(t, strings.HasSuffix(out, "\n\n"), "no blank line after the last board")
	boards := strings.Split(strings.TrimSuffix(out, "\n"), "\n\n")
	require.Len(t, boards, 5, "five boards separated by blank lines")
	for i, b := range boards {
		cols, err := boardtext.Parse(b)
		require.NoError(t, err)
		assert.True(t, nqueens.Verify(cols) == nil, "board %d", i)
		assert.Equal(t, first10[i]+"\n", string(report.Columns(nil, cols)), "board %d is the %d-th solution", i, i)
	}
}

// TestListStreams: the first solution of a large board comes at once and
// a closed pipe ends the listing quietly (list 30 | head -1 used to print
// nothing in 11 minutes).
func TestListStreams(t *testing.T) {
	w := &pipeWriter{}
	var stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"list", "30"}, strings.NewReader(""), w, &stderr))
	assert.Equal(t, 1, w.lines)
}
