package known_test

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
)

// TestResultsCSV checks every count in the published results.csv against
// the known values, so the file can never go stale or wrong
// (scripts/results.sh regenerates it).
func TestResultsCSV(t *testing.T) {
	f, err := os.Open("../../results.csv")
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	want := []string{"n", "total", "unique", "point_symmetric", "rot90_symmetric", "method", "seconds",
		"workers", "nodes", "nodes_per_second", "cpu", "go_version", "date"}
	require.Equal(t, want, recs[0], "header")
	require.Greater(t, len(recs), 1, "results.csv has no rows")
	for i, rec := range recs[1:] {
		n, err := strconv.Atoi(rec[0])
		require.NoError(t, err)
		require.Equal(t, i, n, "rows must run n = 0, 1, 2, … without gaps")
		require.LessOrEqual(t, n, known.MaxN)
		assert.Equal(t, fmt.Sprint(known.Total[n]), rec[1], "n=%d total", n)
		assert.Equal(t, fmt.Sprint(known.Unique[n]), rec[2], "n=%d unique", n)
		assert.Equal(t, fmt.Sprint(known.PointSym(n)), rec[3], "n=%d point_symmetric", n)
		assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), rec[4], "n=%d rot90_symmetric", n)
		assert.Contains(t, []string{"sym", "join"}, rec[5], "n=%d method", n)
		for _, col := range []int{6, 7, 8, 9} {
			_, err := strconv.ParseFloat(rec[col], 64)
			assert.NoError(t, err, "n=%d column %s", n, want[col])
		}
		assert.NotEmpty(t, rec[10], "n=%d cpu", n)
		assert.Regexp(t, `^go1\.`, rec[11], "n=%d go_version", n)
		assert.Regexp(t, `^\d{4}-\d{2}-\d{2}$`, rec[12], "n=%d date", n)
	}
}
