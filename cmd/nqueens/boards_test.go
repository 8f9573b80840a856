package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// isSolution is an independent check: a permutation with no two queens on
// one diagonal, with maps instead of conflict's arrays.
func isSolution(cols []int) bool {
	n := len(cols)
	seen := map[int]bool{}
	sum, diff := map[int]bool{}, map[int]bool{}
	for r, c := range cols {
		if c < 0 || c >= n || seen[c] || sum[r+c] || diff[r-c] {
			return false
		}
		seen[c], sum[r+c], diff[r-c] = true, true, true
	}
	return true
}

func TestConstruct(t *testing.T) {
	for n := 0; n <= 300; n++ {
		cols := Construct(n)
		if n == 2 || n == 3 {
			assert.Nil(t, cols, "n=%d", n)
			continue
		}
		require.Len(t, cols, n)
		assert.True(t, isSolution(cols), "Construct(%d) = %v is not a solution", n, cols)
	}
	assert.True(t, isSolution(Construct(1_000_000)), "Construct(1000000)")
	assert.True(t, isSolution(Construct(1_000_003)), "Construct(1000003)")
}

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
		cols, err := parseBoard(out)
		require.NoError(t, err, "n=%d", n)
		require.True(t, isSolution(cols), "n=%d", n)
		var vout, verr bytes.Buffer
		root := []string{"verify"}
		cmdErr := runWithStdin(out, root, &vout, &verr)
		require.NoError(t, cmdErr, "verify of solve %d: %s", n, verr.String())
		assert.Equal(t, "valid\n", vout.String())
	}
}

func runWithStdin(stdin string, args []string, stdout, stderr *bytes.Buffer) error {
	return run(context.Background(), args, strings.NewReader(stdin), stdout, stderr)
}

func TestListEight(t *testing.T) {
	out, _ := runOK(t, "list", "8", "-j", "3")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Len(t, lines, 92)
	assert.True(t, slices.IsSorted(lines), "sorted")
	assert.Len(t, slices.Compact(slices.Clone(lines)), 92, "distinct")
	for _, l := range lines {
		cols, err := parseColumns(l)
		require.NoError(t, err)
		assert.True(t, isSolution(cols), l)
	}
	out, _ = runOK(t, "list", "10")
	assert.Equal(t, 724, strings.Count(out, "\n"))
	first10 := strings.SplitN(out, "\n", 6)[:5]
	out, _ = runOK(t, "list", "10", "--limit", "5", "--board")
	assert.False(t, strings.HasSuffix(out, "\n\n"), "no blank line after the last board")
	boards := strings.Split(strings.TrimSuffix(out, "\n"), "\n\n")
	require.Len(t, boards, 5, "five boards separated by blank lines")
	for i, b := range boards {
		cols, err := parseBoard(b)
		require.NoError(t, err)
		assert.True(t, isSolution(cols), "board %d", i)
		assert.Equal(t, first10[i]+"\n", string(appendColumns(nil, cols)), "board %d is the %d-th solution", i, i)
	}
}

// TestConflictFirst checks that verify names the first conflict from the
// top, against a brute-force scan of all pairs.
func TestConflictFirst(t *testing.T) {
	for _, cols := range [][]int{{0, 0, 1, 2}, {3, 1, 2, 0}, {1, 3, 0, 2}, {2, 0, 1, 3}, {0, 2, 4, 1, 3}, {4, 3, 2, 1, 0}, {0, 3, 1, 4, 2}} {
		want := ""
	outer:
		for j := range cols {
			for i := 0; i < j; i++ {
				switch {
				case cols[i] == cols[j]:
					want = fmt.Sprintf("rows %d and %d share column %d", i, j, cols[i])
					break outer
				case cols[i]-cols[j] == i-j || cols[i]-cols[j] == j-i:
					want = fmt.Sprintf("rows %d and %d share a diagonal", i, j)
					break outer
				}
			}
		}
		assert.Equal(t, want, conflict(cols), "%v", cols)
	}
}
