// Package benchmark is the hardware benchmark of nqueens bench: a fixed,
// versioned workload of counts timed for 1, 2, 4, … workers, the machine
// it ran on (from cpuid), and the formats its results are written in
// (text, CSV, JSON, the Go benchmark format for benchstat, a speedup plot).
package benchmark

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/regular"
)

// Version changes whenever the workloads change, so that results from
// different versions are never compared as equals. Version 1 had no join;
// version 2 counted, for sym and mirror, the squares version 3's kernels
// skip unplaced (doomed ones, see engine.doomed), so their nodes differ;
// version 3 timed single counts of 6-50 ms in --quick (start-up, not the
// machine); version 4 has one board a method and cells of a least time.
const Version = 4

// Case is one count of a workload.
type Case struct {
	N      int
	Method nqueens.Method
}

// Workload is a fixed list of counts, timed Repeats times after one
// warm-up count. Each timing (a cell) repeats its count until it has run
// for at least MinCell, as Go's benchmarks repeat b.N times, and reports
// the time per count: a cell short enough to be start-up and scheduling
// noise says nothing about the machine.
type Workload struct {
	Name    string
	Cases   []Case
	Warmup  Case
	Repeats int
	MinCell time.Duration
}

// Default and Quick time what count runs: join (the default from n = 12)
// beside the backtracking kernels sym and mirror, one board each.
var (
	Default = Workload{"default", []Case{{18, nqueens.Join}, {16, nqueens.Sym}, {16, nqueens.Mirror}}, Case{14, nqueens.Sym}, 5, 2 * time.Second}
	Quick   = Workload{"quick", []Case{{16, nqueens.Join}, {15, nqueens.Sym}, {15, nqueens.Mirror}}, Case{12, nqueens.Sym}, 3, 500 * time.Millisecond}
)

// Row is the result of one (case, workers) pair.
type Row struct {
	N          int       `json:"n"`
	Method     string    `json:"method"`
	Workers    int       `json:"workers"`
	Device     string    `json:"device,omitempty"` // the device that counted (bench --device), "" on the CPU
	Runs       []float64 `json:"runs_seconds"`     // seconds a count, one a cell
	PerCell    int       `json:"counts_per_cell"`  // counts timed together in the last cell
	Median     float64   `json:"median_seconds"`
	Nodes      string    `json:"nodes"`
	Total      string    `json:"total"`
	NodeUnit   string    `json:"node_unit"`
	NodesPerS  float64   `json:"nodes_per_second"`
	SolsPerS   float64   `json:"solutions_per_second"`
	Speedup    float64   `json:"speedup"`
	Efficiency float64   `json:"efficiency"`
}

// Run times the workload for workers = 1, 2, 4, … up to maxWorkers,
// reporting each count's progress to progress (if set), and checks every
// total against the published one. A cancelled context stops it with the
// library's error (a *nqueens.StoppedError).
func Run(ctx context.Context, wl Workload, maxWorkers int, progress func(nqueens.Progress)) ([]Row, error) {
	workers := engine.WorkerSteps(maxWorkers)
	count := func(bc Case, w int, progress func(nqueens.Progress)) (nqueens.Counts, error) {
		opts := []nqueens.CountOption{nqueens.WithMethod(bc.Method), nqueens.WithWorkers(w)}
		if progress != nil {
			opts = append(opts, nqueens.WithProgress(progress))
		}
		return nqueens.Count(ctx, bc.N, opts...)
	}
	if _, err := count(wl.Warmup, workers[len(workers)-1], nil); err != nil {
		return nil, err
	}
	var rows []Row
	for _, bc := range wl.Cases {
		var one float64
		for _, w := range workers {
			row := Row{N: bc.N, Method: string(bc.Method), Workers: w, NodeUnit: NodeUnit(bc.Method)}
			var c nqueens.Counts
			for range wl.Repeats {
				var err error
				var per float64
				c, per, row.PerCell, err = cell(wl.MinCell, func() (nqueens.Counts, error) { return count(bc, w, progress) })
				if err != nil {
					return nil, err
				}
				row.Runs = append(row.Runs, per)
			}
			if want := fmt.Sprint(known.Total[bc.N]); c.Total.String() != want {
				return nil, fmt.Errorf("bench: %s counted %s for n = %d, want %s", bc.Method, c.Total, bc.N, want)
			}
			row.Median = Median(row.Runs)
			row.Nodes, row.Total = c.Nodes.String(), c.Total.String()
			row.NodesPerS = c.Nodes.Float64() / row.Median
			row.SolsPerS = c.Total.Float64() / row.Median
			if w == 1 {
				one = row.Median
			}
			if one > 0 {
				row.Speedup = one / row.Median
				row.Efficiency = row.Speedup / float64(w)
			}
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// cell times one cell: count, again and again until the counts have run
// for min in all, and returns the last count, the seconds a count and how
// many were counted.
func cell(min time.Duration, count func() (nqueens.Counts, error)) (nqueens.Counts, float64, int, error) {
	var sum time.Duration
	for k := 1; ; k++ {
		c, err := count()
		if err != nil {
			return c, 0, 0, err
		}
		if sum += c.Elapsed; sum >= min {
			return c, sum.Seconds() / float64(k), k, nil
		}
	}
}

// RunDevice times the workload's cases on the device that spec names
// (nqueens.WithDevice), its join tuned by tuning
// (nqueens.WithDeviceTuning), one row a case with the device's name, and
// checks every total.
func RunDevice(ctx context.Context, wl Workload, spec, tuning string, progress func(nqueens.Progress)) ([]Row, error) {
	count := func(bc Case, progress func(nqueens.Progress)) (nqueens.Counts, error) {
		opts := []nqueens.CountOption{nqueens.WithMethod(bc.Method), nqueens.WithDevice(spec), nqueens.WithDeviceTuning(tuning)}
		if progress != nil {
			opts = append(opts, nqueens.WithProgress(progress))
		}
		return nqueens.Count(ctx, bc.N, opts...)
	}
	if _, err := count(wl.Warmup, nil); err != nil {
		return nil, err
	}
	var rows []Row
	for _, bc := range wl.Cases {
		row := Row{N: bc.N, Method: string(bc.Method), NodeUnit: NodeUnit(bc.Method), Speedup: 1}
		var c nqueens.Counts
		for range wl.Repeats {
			var err error
			var per float64
			c, per, row.PerCell, err = cell(wl.MinCell, func() (nqueens.Counts, error) { return count(bc, progress) })
			if err != nil {
				return nil, err
			}
			row.Runs = append(row.Runs, per)
		}
		if want := fmt.Sprint(known.Total[bc.N]); c.Total.String() != want {
			return nil, fmt.Errorf("bench: %s on %s counted %s for n = %d, want %s", bc.Method, spec, c.Total, bc.N, want)
		}
		row.Device = strings.Join(c.Devices, ", ")
		row.Median = Median(row.Runs)
		row.Nodes, row.Total = c.Nodes.String(), c.Total.String()
		row.NodesPerS = c.Nodes.Float64() / row.Median
		row.SolsPerS = c.Total.Float64() / row.Median
		rows = append(rows, row)
	}
	return rows, nil
}

// NodeUnit names what a method's nodes count.
func NodeUnit(m nqueens.Method) string {
	if m == nqueens.Join {
		return "pairs"
	}
	return "queens"
}

// Median is the median of xs.
func Median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// CSVHeader names the columns of CSV rows.
var CSVHeader = []string{"date", "workload", "cpu", "logical_cores", "go", "n", "method", "workers", "median_seconds", "nodes_per_second", "solutions_per_second", "speedup", "efficiency", "node_unit"}

func csvRow(m machine.Machine, wl Workload, r Row, date string) []string {
	return []string{date, fmt.Sprintf("v%d-%s", Version, wl.Name), m.CPU, strconv.Itoa(m.CPUs), m.Go,
		strconv.Itoa(r.N), r.Method, strconv.Itoa(r.Workers), strconv.FormatFloat(r.Median, 'f', 4, 64),
		strconv.FormatFloat(r.NodesPerS, 'f', 0, 64), strconv.FormatFloat(r.SolsPerS, 'f', 0, 64),
		strconv.FormatFloat(r.Speedup, 'f', 3, 64), strconv.FormatFloat(r.Efficiency, 'f', 3, 64), r.NodeUnit}
}

// AppendCSV appends the rows to the CSV file at path, with a header if
// the file is new or empty. A file that is not bench's own (its first line
// is not [CSVHeader]: a journal, a shard file, anything else) or not a
// regular file is refused, never appended to ([CheckCSV]).
func AppendCSV(path string, m machine.Machine, wl Workload, rows []Row) error {
	file, empty, err := openCSV(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(file)
	if empty {
		_ = w.Write(CSVHeader)
	}
	date := time.Now().UTC().Format(time.RFC3339)
	for _, r := range rows {
		_ = w.Write(csvRow(m, wl, r, date))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		file.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return file.Close()
}

// ErrNotCSV is wrapped by [CheckCSV]'s error for a file that is not a
// bench --csv file.
var ErrNotCSV = errors.New("is not a bench --csv file")

// CheckCSV checks, before a benchmark runs, that its rows can be appended
// to path: a new file, an empty one, or one whose first line is bench's
// [CSVHeader]. Errors wrap [regular.ErrNotRegular] or [ErrNotCSV] for a
// file that must not be written.
func CheckCSV(path string) error {
	f, _, err := openCSV(path)
	if err != nil {
		return err
	}
	return f.Close()
}

// openCSV opens path to append rows, checking its first line; empty says
// it has none yet.
func openCSV(path string) (f *os.File, empty bool, err error) {
	f, st, err := regular.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, false, err
	}
	if st.Size() == 0 {
		return f, true, nil
	}
	want := strings.Join(CSVHeader, ",") + "\n"
	first := make([]byte, len(want))
	if _, err := io.ReadFull(f, first); err != nil || string(first) != want {
		f.Close()
		return nil, false, fmt.Errorf("%s %w (its first line is not bench's header %q): bench appends only to its own CSV files; name a new file", msg.Path(path), ErrNotCSV, strings.Join(CSVHeader, ","))
	}
	return f, false, nil
}

// Formats lists what [Write] writes.
var Formats = []string{"text", "csv", "json", "gobench"}

// Write writes the results in one of [Formats]; text adds the scores and
// their comparison with refs (other machines' rows of the same workload).
func Write(out io.Writer, format string, m machine.Machine, wl Workload, rows []Row, refs []Reference) error {
	joinK, searchK := engine.Kernels()
	switch format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"workload": wl.Name, "workload_version": Version, "repeats": wl.Repeats,
			"min_cell_seconds": wl.MinCell.Seconds(), "machine": m, "kernels": map[string]string{"join": joinK, "backtracking": searchK},
			"rows": rows, "scores": Scores(rows)})
	case "csv":
		w := csv.NewWriter(out)
		_ = w.Write(CSVHeader)
		date := time.Now().UTC().Format(time.RFC3339)
		for _, r := range rows {
			_ = w.Write(csvRow(m, wl, r, date))
		}
		w.Flush()
		return w.Error()
	case "gobench":
		fmt.Fprintf(out, "goos: %s\ngoarch: %s\npkg: github.com/nqueens/nqueens\ncpu: %s\n", m.GOOS, m.GOARCH, m.CPU)
		fmt.Fprintf(out, "nqueens-workload: v%d-%s\nlogical-cores: %d\ngo: %s\nkernels: join %s, backtracking %s\n", Version, wl.Name, m.CPUs, m.Go, joinK, searchK)
		for _, r := range rows {
			nodes, _ := strconv.ParseFloat(r.Nodes, 64)
			total, _ := strconv.ParseFloat(r.Total, 64)
			for _, s := range r.Runs {
				unit := "nodes/s"
				if r.NodeUnit == "pairs" {
					unit = "pairs/s" // a unit of its own: benchstat never compares it with queens
				}
				where := fmt.Sprintf("workers=%d", r.Workers)
				if r.Device != "" {
					where = "device=" + deviceKey(r.Device)
				}
				fmt.Fprintf(out, "BenchmarkCount/method=%s/n=%d/%s-%d\t1\t%.0f ns/op\t%.0f %s\t%.0f solutions/s\n",
					r.Method, r.N, where, m.GOMAXPROCS, s*1e9, nodes/s, unit, total/s)
			}
		}
		return nil
	}
	fmt.Fprintf(out, "nqueens bench: workload v%d-%s, median of %d cells of at least %v after a warm-up\n", Version, wl.Name, wl.Repeats, wl.MinCell)
	fmt.Fprintf(out, "cpu:      %s (%s)\n", m.CPU, m.Vendor)
	fmt.Fprintf(out, "cores:    %s", m.Cores())
	if m.Agree() {
		fmt.Fprintf(out, ", %d threads per core", m.ThreadsPerCore)
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "caches:   %s\n", strings.Join(m.Caches, ", "))
	fmt.Fprintf(out, "features: %s, %s\n", strings.Join(m.Features, ", "), m.X86Level)
	fmt.Fprintf(out, "go:       %s %s/%s, GOMAXPROCS %d\n", m.Go, m.GOOS, m.GOARCH, m.GOMAXPROCS)
	fmt.Fprintf(out, "kernels:  join %s, backtracking %s\n\n", joinK, searchK)
	if len(rows) > 0 && rows[0].Device != "" {
		fmt.Fprintf(out, "device:   %s\n\n", rows[0].Device)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "n\tmethod\tmedian s\tnodes/s\tnode\tsolutions/s\t")
		for _, r := range rows {
			fmt.Fprintf(tw, "%d\t%s\t%.4f\t%.4g\t%s\t%.4g\t\n", r.N, r.Method, r.Median, r.NodesPerS, r.NodeUnit, r.SolsPerS)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(out, "\nnodes: as on the CPU: queens placed by sym and mirror, east-west pairs matched by the join"); err != nil {
			return err
		}
		return WriteScores(out, wl, Scores(rows), nil)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\tmethod\tworkers\tmedian s\tnodes/s\tnode\tsolutions/s\tspeedup\tefficiency\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.4f\t%.4g\t%s\t%.4g\t%.2f\t%.0f%%\t\n", r.N, r.Method, r.Workers, r.Median, r.NodesPerS, r.NodeUnit, r.SolsPerS, r.Speedup, 100*r.Efficiency)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(out, "\nnodes: queens placed (sym, mirror) or pairs of quarter placements tried (join); compare solutions/s across methods"); err != nil {
		return err
	}
	return WriteScores(out, wl, Scores(rows), refs)
}

// deviceKey is a device's name as one benchstat key: letters, digits and
// '_' only.
func deviceKey(name string) string {
	name, _, _ = strings.Cut(name, " (")
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}
