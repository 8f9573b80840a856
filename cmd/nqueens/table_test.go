package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/machine"
)

// TestTableCSVParses reads the CSV table back and checks every count.
func TestTableCSVParses(t *testing.T) {
	out, _ := runOK(t, "table", "0", "13", "--format", "csv", "--meta")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 15)
	assert.Equal(t, append(append([]string(nil), report.Header...), report.MetaHeader...), recs[0])
	for n, rec := range recs[1:] {
		assert.Equal(t, fmt.Sprint(n), rec[0])
		assert.Equal(t, fmt.Sprint(known.Total[n]), rec[1], "n=%d total", n)
		assert.Equal(t, fmt.Sprint(known.Unique[n]), rec[2], "n=%d unique", n)
		assert.Equal(t, fmt.Sprint(known.PointSym(n)), rec[3], "n=%d point", n)
		assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), rec[4], "n=%d rot90", n)
	}
}

func TestTableJSONLines(t *testing.T) {
	out, _ := runOK(t, "table", "1", "12", "--format", "json")
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 1
	for sc.Scan() {
		var row map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &row))
		assert.Equal(t, float64(n), row["n"])
		assert.Equal(t, fmt.Sprint(known.Total[n]), row["total"], "counts are decimal strings")
		assert.Equal(t, fmt.Sprint(known.Unique[n]), row["unique"])
		n++
	}
	assert.Equal(t, 13, n)
}

// TestBFileFormat checks what OEIS requires of a b-file: "n a(n)" with one
// space, ascending consecutive n, LF endings, a final newline, comments
// only at the top.
func TestBFileFormat(t *testing.T) {
	for _, seq := range []string{"total", "unique", "point", "rot90"} {
		out, _ := runOK(t, "table", "0", "14", "--format", "bfile", "--seq", seq)
		require.True(t, strings.HasSuffix(out, "\n"))
		assert.NotContains(t, out, "\r")
		next, inComments := known.Sequences[seq].Offset, true
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			if strings.HasPrefix(line, "#") {
				assert.True(t, inComments, "comment after data: %q", line)
				continue
			}
			inComments = false
			var n int
			var v string
			_, err := fmt.Sscanf(line, "%d %s", &n, &v)
			require.NoError(t, err, line)
			assert.Equal(t, fmt.Sprintf("%d %s", n, v), line, "single space, plain decimal")
			assert.Equal(t, next, n, "consecutive n")
			next++
		}
		assert.Equal(t, 15, next)
	}
}

// TestBenchQuickJSON runs the quick hardware benchmark and parses it.
func TestBenchQuickJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("counts n = 15 and 16 eighteen times")
	}
	out, _ := runOK(t, "bench", "--quick", "-j", "2", "--cell", "1ms", "--format", "json")
	var rep struct {
		Workload        string          `json:"workload"`
		WorkloadVersion int             `json:"workload_version"`
		Machine         machine.Machine `json:"machine"`
		Rows            []benchmark.Row
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep))
	assert.Equal(t, "quick", rep.Workload)
	assert.Equal(t, benchmark.Version, rep.WorkloadVersion)
	assert.NotEmpty(t, rep.Machine.CPU)
	assert.Len(t, rep.Machine.Caches, 4)
	assert.Len(t, rep.Machine.Features, 3)
	require.Len(t, rep.Rows, 6) // 3 cases × workers 1, 2
	for _, r := range rep.Rows {
		assert.Len(t, r.Runs, 3)
		assert.Positive(t, r.Median)
		assert.Positive(t, r.NodesPerS)
		assert.Equal(t, fmt.Sprint(known.Total[r.N]), r.Total)
		if r.Workers == 1 {
			assert.InDelta(t, 1.0, r.Speedup, 1e-9)
		}
		assert.InDelta(t, r.Speedup/float64(r.Workers), r.Efficiency, 1e-9)
	}
}

func TestBenchWorkers(t *testing.T) {
	assert.Equal(t, []int{1}, engine.WorkerSteps(1))
	assert.Equal(t, []int{1, 2}, engine.WorkerSteps(2))
	assert.Equal(t, []int{1, 2, 4, 8, 12}, engine.WorkerSteps(12))
	assert.Equal(t, []int{1, 2, 4, 8, 16}, engine.WorkerSteps(16))
	assert.InDelta(t, 2.0, benchmark.Median([]float64{3, 1, 2}), 0)
	assert.InDelta(t, 2.5, benchmark.Median([]float64{4, 1, 2, 3}), 0)
}

// secondsRE matches the only column that changes from run to run, and
// what JSON says of the machine (workers, memory limit).
var secondsRE = regexp.MustCompile(`\d+\.\d{3}\b|"seconds":[0-9.e-]+|"workers":\d+|"memory_limit":"[^"]*"`)

// TestTableGolden compares every table format byte for byte with the files
// in testdata/golden, the seconds replaced by a placeholder of the same
// width. Run with -update to rewrite them.
func TestTableGolden(t *testing.T) {
	for _, format := range report.Formats {
		for _, seq := range []string{"total", "unique"} {
			if format != "bfile" && seq != "total" {
				continue
			}
			from := "0"
			if seq == "unique" {
				from = "1"
			}
			args := []string{"table", from, "12", "--format", format}
			if format == "bfile" {
				args = append(args, "--seq", seq) // --seq is a b-file's alone
			}
			out, _ := runOK(t, args...)
			out = secondsRE.ReplaceAllStringFunc(out, func(s string) string {
				switch {
				case strings.HasPrefix(s, `"seconds"`):
					return `"seconds":0`
				case strings.HasPrefix(s, `"workers"`):
					return `"workers":0`
				case strings.HasPrefix(s, `"memory_limit"`):
					return `"memory_limit":"-"`
				}
				return "9.999"
			})
			name := filepath.Join("testdata", "golden", fmt.Sprintf("table-%s-%s.txt", format, seq))
			if *update {
				require.NoError(t, os.WriteFile(name, []byte(out), 0o644))
			}
			want, err := os.ReadFile(name)
			require.NoError(t, err)
			assert.Equal(t, string(want), out, "nqueens %s", strings.Join(args, " "))
		}
	}
}

var update = flag.Bool("update", false, "rewrite the golden files")

// cancelOnRow cancels a run when the row of n = 4 reaches it.
type cancelOnRow struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (w *cancelOnRow) Write(p []byte) (int, error) {
	if regexp.MustCompile(`(?m)^(\| |\s*)4\b|"n":4,`).Match(p) {
		w.cancel()
	}
	return w.Buffer.Write(p)
}

func (w *cancelOnRow) WriteString(s string) (int, error) { return w.Write([]byte(s)) }

// TestTableStreams checks that every format writes each row as soon as it
// is counted, the aligned text too (its widths are known before the first
// row): a reader that stops the run on seeing the first row stops it before
// the last row is counted.
func TestTableStreams(t *testing.T) {
	for _, format := range report.Formats {
		ctx, cancel := context.WithCancel(context.Background())
		out := &cancelOnRow{cancel: cancel}
		var errb bytes.Buffer
		err := run(ctx, []string{"table", "4", "13", "--format", format}, strings.NewReader(""), out, &errb)
		cancel()
		assert.Error(t, err, "%s: stopped after the first row:\n%s", format, out.String())
		assert.NotContains(t, out.String(), "73712", "%s: row 13 never counted", format)
	}
}

// TestGoldenKnown checks the counts the golden files hold against the
// published values (internal/known), so that -update cannot bless a wrong
// count: every row of every format, every column that is a count.
func TestGoldenKnown(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "table-*.txt"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		rows := 0
		check := func(fields []string) {
			n, err := strconv.Atoi(fields[0])
			require.NoError(t, err, "%s: %v", name, fields)
			want := []uint64{known.Total[n], known.Unique[n], known.PointSym(n), known.Rot90Sym[n]}
			for k, f := range fields[1:] {
				got, err := strconv.ParseUint(f, 10, 64)
				require.NoError(t, err, "%s: row n = %d: %q", name, n, f)
				assert.Equal(t, want[k], got, "%s: n = %d, column %d", name, n, k+1)
			}
			rows++
		}
		base := filepath.Base(name)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			switch {
			case strings.HasPrefix(base, "table-bfile-"):
				if strings.HasPrefix(line, "#") {
					continue
				}
				f := strings.Fields(line)
				if strings.Contains(base, "unique") {
					n, _ := strconv.Atoi(f[0])
					got, err := strconv.ParseUint(f[1], 10, 64)
					require.NoError(t, err)
					assert.Equal(t, known.Unique[n], got, "%s: n = %d", name, n)
					rows++
					continue
				}
				check(f)
			case strings.HasPrefix(base, "table-json-"):
				var c struct {
					N                                 int
					Total, Unique, PointSym, Rot90Sym string
				}
				var raw map[string]any
				require.NoError(t, json.Unmarshal([]byte(line), &raw))
				c.N = int(raw["n"].(float64))
				check([]string{strconv.Itoa(c.N), raw["total"].(string), raw["unique"].(string), raw["point_symmetric"].(string), raw["rot90_symmetric"].(string)})
			case strings.HasPrefix(base, "table-csv-"):
				if strings.HasPrefix(line, "n,") {
					continue
				}
				check(strings.Split(line, ",")[:5])
			case strings.HasPrefix(base, "table-markdown-"):
				f := strings.FieldsFunc(line, func(r rune) bool { return r == '|' || r == ' ' })
				if len(f) == 0 || f[0] == "n" || strings.HasPrefix(f[0], "-") {
					continue
				}
				check(f[:5])
			case strings.HasPrefix(base, "table-text-"):
				f := strings.Fields(line)
				if f[0] == "n" {
					continue
				}
				check(f[:5])
			default:
				t.Fatalf("%s: a golden file this test does not read", name)
			}
		}
		assert.Greater(t, rows, 10, "%s: rows checked", name)
	}
}
