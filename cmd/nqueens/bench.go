package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/klauspost/cpuid/v2"
	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
)

// benchWorkloadVersion changes whenever the workloads below change, so that
// results from different versions are never compared as equals.
const benchWorkloadVersion = 2

type benchCase struct {
	N      int
	Method nqueens.Method
}

// workload is a fixed list of counts, timed repeats times after one warm-up
// count.
type workload struct {
	name    string
	cases   []benchCase
	warmup  benchCase
	repeats int
}

// The workloads time what count runs: join (the default from n = 12)
// beside the backtracking kernels sym and mirror. Version 1 had no join.
var workloads = map[bool]workload{
	false: {"default", []benchCase{{16, nqueens.Join}, {17, nqueens.Join}, {15, nqueens.Sym}, {16, nqueens.Sym}, {15, nqueens.Mirror}, {16, nqueens.Mirror}}, benchCase{13, nqueens.Sym}, 5},
	true:  {"quick", []benchCase{{13, nqueens.Join}, {14, nqueens.Join}, {13, nqueens.Sym}, {14, nqueens.Sym}, {13, nqueens.Mirror}, {14, nqueens.Mirror}}, benchCase{12, nqueens.Sym}, 3},
}

var benchFormats = []string{"text", "csv", "json", "gobench"}

type benchFlags struct {
	quick    bool
	format   string
	csvFile  string
	plot     string
	workers  int
	progress progressFlags
}

func benchCmd() *cobra.Command {
	var f benchFlags
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Benchmark this machine with a standard, versioned workload",
		Long: fmt.Sprintf(`bench times a fixed workload (version %d) for workers = 1, 2, 4, … up to
the logical cores: after a warm-up, every count is repeated and the median
kept. It reports the CPU (brand, cores, caches, features, from cpuid), Go and
GOMAXPROCS, then per row: n, method, workers, median seconds, nodes/s,
solutions/s, speedup over one worker and parallel efficiency. Each count is
timed as count runs it (planning included). Nodes are queens placed for
sym and mirror and pairs of quarter placements tried for join (the node
unit column says which): compare nodes/s within a method, solutions/s
across methods.

Workloads: default (join at n = 16 and 17, sym and mirror at n = 15 and 16,
5 repeats; about two minutes on 2 cores) and --quick (n = 13 and 14, each
method, 3 repeats; a few seconds).

Formats: text (default), csv, json, gobench (the Go benchmark format with
"key: value" configuration lines: compare machines with benchstat).`, benchWorkloadVersion),
		Example: "  nqueens bench --quick\n  nqueens bench --format gobench > $(hostname).txt && benchstat a.txt b.txt\n  nqueens bench --csv results-bench.csv --plot speedup.svg",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := checkWorkers(cmd, f.workers); err != nil {
				return err
			}
			if err := checkChoice("format", f.format, benchFormats); err != nil {
				return err
			}
			if f.plot != "" {
				if ext := strings.ToLower(filepath.Ext(f.plot)); ext != ".svg" && ext != ".png" {
					return usagef("--plot %s: the file name must end in .svg or .png", f.plot)
				}
			}
			// Fail now, not after the benchmark, if the files cannot be written.
			for _, path := range []string{f.csvFile, f.plot} {
				if path == "" {
					continue
				}
				fh, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
				if err != nil {
					return err
				}
				fh.Close()
			}
			return runBench(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), f)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.quick, "quick", false, "run the quick workload (seconds) instead of the default (about a minute on 2 cores)")
	fs.StringVarP(&f.format, "format", "f", "text", "output format: "+strings.Join(benchFormats, ", "))
	fs.StringVar(&f.csvFile, "csv", "", "also append the rows to this CSV file (with a header if it is new)")
	fs.StringVar(&f.plot, "plot", "", "draw speedup against workers to this .svg or .png file")
	fs.IntVarP(&f.workers, "workers", "j", 0, "largest worker count to try (default: the logical cores cpuid detects)")
	f.progress.register(fs)
	return cmd
}

// benchRow is the result of one (case, workers) pair.
type benchRow struct {
	N          int       `json:"n"`
	Method     string    `json:"method"`
	Workers    int       `json:"workers"`
	Runs       []float64 `json:"runs_seconds"`
	Median     float64   `json:"median_seconds"`
	Nodes      string    `json:"nodes"`
	Total      string    `json:"total"`
	NodeUnit   string    `json:"node_unit"`
	NodesPerS  float64   `json:"nodes_per_second"`
	SolsPerS   float64   `json:"solutions_per_second"`
	Speedup    float64   `json:"speedup"`
	Efficiency float64   `json:"efficiency"`
}

// machine describes where a benchmark ran.
type machine struct {
	CPU            string   `json:"cpu"`
	Vendor         string   `json:"vendor"`
	PhysicalCores  int      `json:"physical_cores"`
	LogicalCores   int      `json:"logical_cores"`
	ThreadsPerCore int      `json:"threads_per_core"`
	Caches         []string `json:"caches"`
	Features       []string `json:"features"`
	X86Level       string   `json:"x86_64_level"`
	Go             string   `json:"go"`
	GOOS           string   `json:"goos"`
	GOARCH         string   `json:"goarch"`
	GOMAXPROCS     int      `json:"gomaxprocs"`
}

func detectMachine() machine {
	c := cpuid.CPU
	m := machine{
		CPU: orUnknown(c.BrandName), Vendor: orUnknown(c.VendorString),
		PhysicalCores: c.PhysicalCores, LogicalCores: c.LogicalCores, ThreadsPerCore: c.ThreadsPerCore,
		Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, GOMAXPROCS: runtime.GOMAXPROCS(0),
		X86Level: "unknown",
	}
	for _, cache := range []struct {
		name string
		size int
	}{{"L1d", c.Cache.L1D}, {"L1i", c.Cache.L1I}, {"L2", c.Cache.L2}, {"L3", c.Cache.L3}} {
		s := "unknown"
		if cache.size > 0 {
			s = byteSize(cache.size)
		}
		m.Caches = append(m.Caches, cache.name+" "+s)
	}
	for _, feat := range []struct {
		name string
		id   cpuid.FeatureID
	}{{"POPCNT", cpuid.POPCNT}, {"BMI2", cpuid.BMI2}, {"AVX2", cpuid.AVX2}} {
		v := "no"
		switch {
		case c.VendorID == cpuid.VendorUnknown && c.BrandName == "":
			v = "unknown"
		case c.Supports(feat.id):
			v = "yes"
		}
		m.Features = append(m.Features, feat.name+" "+v)
	}
	if l := c.X64Level(); l > 0 {
		m.X86Level = "x86-64-v" + strconv.Itoa(l)
	}
	return m
}

func byteSize(b int) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

func runBench(ctx context.Context, stdout, stderr io.Writer, f benchFlags) error {
	wl := workloads[f.quick]
	workers := engine.WorkerSteps(workersOf(f.workers))
	count := func(bc benchCase, w int, prog *progress) (nqueens.Counts, error) {
		opts := []nqueens.Option{nqueens.WithMethod(bc.Method), nqueens.WithWorkers(w)}
		if prog != nil {
			opts = append(opts, nqueens.WithProgress(prog.update))
		}
		c, err := nqueens.Count(ctx, bc.N, opts...)
		var stopped *nqueens.StoppedError
		if errors.As(err, &stopped) {
			return c, interrupted(ctx, "bench stopped")
		}
		return c, err
	}
	if _, err := count(wl.warmup, workers[len(workers)-1], nil); err != nil {
		return err
	}
	prog := f.progress.start(stderr, func(p nqueens.Progress) string {
		return fmt.Sprintf("bench %s: n = %d %s", wl.name, p.N, p.Method)
	})
	defer prog.stop()
	var rows []benchRow
	for _, bc := range wl.cases {
		var one float64
		for _, w := range workers {
			row := benchRow{N: bc.N, Method: string(bc.Method), Workers: w, NodeUnit: nodeUnit(bc.Method)}
			var c nqueens.Counts
			for range wl.repeats {
				var err error
				if c, err = count(bc, w, prog); err != nil {
					return err
				}
				row.Runs = append(row.Runs, c.Elapsed.Seconds())
			}
			if want := fmt.Sprint(known.Total[bc.N]); c.Total.String() != want {
				return fmt.Errorf("bench: %s counted %s for n = %d, want %s", bc.Method, c.Total, bc.N, want)
			}
			row.Median = median(row.Runs)
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
	prog.stop()
	m := detectMachine()
	if f.csvFile != "" {
		if err := appendBenchCSV(f.csvFile, m, wl, rows); err != nil {
			return err
		}
	}
	if f.plot != "" {
		if err := plotSpeedup(f.plot, m, wl, rows); err != nil {
			return err
		}
	}
	if err := writeBench(stdout, f.format, m, wl, rows); err != nil {
		return fmt.Errorf("writing the benchmark: %w", err)
	}
	return nil
}

// nodeUnit names what a method's nodes count.
func nodeUnit(m nqueens.Method) string {
	if m == nqueens.Join {
		return "pairs"
	}
	return "queens"
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

var benchCSVHeader = []string{"date", "workload", "cpu", "logical_cores", "go", "n", "method", "workers", "median_seconds", "nodes_per_second", "solutions_per_second", "speedup", "efficiency", "node_unit"}

func benchCSVRow(m machine, wl workload, r benchRow, date string) []string {
	return []string{date, fmt.Sprintf("v%d-%s", benchWorkloadVersion, wl.name), m.CPU, strconv.Itoa(m.LogicalCores), m.Go,
		strconv.Itoa(r.N), r.Method, strconv.Itoa(r.Workers), strconv.FormatFloat(r.Median, 'f', 4, 64),
		strconv.FormatFloat(r.NodesPerS, 'f', 0, 64), strconv.FormatFloat(r.SolsPerS, 'f', 0, 64),
		strconv.FormatFloat(r.Speedup, 'f', 3, 64), strconv.FormatFloat(r.Efficiency, 'f', 3, 64), r.NodeUnit}
}

func appendBenchCSV(path string, m machine, wl workload, rows []benchRow) error {
	fi, statErr := os.Stat(path)
	file, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("--csv: %w", err)
	}
	w := csv.NewWriter(file)
	if statErr != nil || fi.Size() == 0 {
		_ = w.Write(benchCSVHeader)
	}
	date := time.Now().UTC().Format(time.RFC3339)
	for _, r := range rows {
		_ = w.Write(benchCSVRow(m, wl, r, date))
	}
	w.Flush()
	if err := w.Error(); err != nil {
		file.Close()
		return fmt.Errorf("--csv %s: %w", path, err)
	}
	return file.Close()
}

func writeBench(out io.Writer, format string, m machine, wl workload, rows []benchRow) error {
	switch format {
	case "json":
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"workload": wl.name, "workload_version": benchWorkloadVersion, "repeats": wl.repeats, "machine": m, "rows": rows})
	case "csv":
		w := csv.NewWriter(out)
		_ = w.Write(benchCSVHeader)
		date := time.Now().UTC().Format(time.RFC3339)
		for _, r := range rows {
			_ = w.Write(benchCSVRow(m, wl, r, date))
		}
		w.Flush()
		return w.Error()
	case "gobench":
		fmt.Fprintf(out, "goos: %s\ngoarch: %s\npkg: github.com/nqueens/nqueens\ncpu: %s\n", m.GOOS, m.GOARCH, m.CPU)
		fmt.Fprintf(out, "nqueens-workload: v%d-%s\nlogical-cores: %d\ngo: %s\n", benchWorkloadVersion, wl.name, m.LogicalCores, m.Go)
		for _, r := range rows {
			nodes, _ := strconv.ParseFloat(r.Nodes, 64)
			total, _ := strconv.ParseFloat(r.Total, 64)
			for _, s := range r.Runs {
				unit := "nodes/s"
				if r.NodeUnit == "pairs" {
					unit = "pairs/s" // a unit of its own: benchstat never compares it with queens
				}
				fmt.Fprintf(out, "BenchmarkCount/method=%s/n=%d/workers=%d-%d\t1\t%.0f ns/op\t%.0f %s\t%.0f solutions/s\n",
					r.Method, r.N, r.Workers, m.GOMAXPROCS, s*1e9, nodes/s, unit, total/s)
			}
		}
		return nil
	}
	fmt.Fprintf(out, "nqueens bench: workload v%d-%s, median of %d runs after a warm-up\n", benchWorkloadVersion, wl.name, wl.repeats)
	fmt.Fprintf(out, "cpu:      %s (%s)\n", m.CPU, m.Vendor)
	fmt.Fprintf(out, "cores:    %d physical, %d logical, %d threads per core\n", m.PhysicalCores, m.LogicalCores, m.ThreadsPerCore)
	fmt.Fprintf(out, "caches:   %s\n", strings.Join(m.Caches, ", "))
	fmt.Fprintf(out, "features: %s, %s\n", strings.Join(m.Features, ", "), m.X86Level)
	fmt.Fprintf(out, "go:       %s %s/%s, GOMAXPROCS %d\n\n", m.Go, m.GOOS, m.GOARCH, m.GOMAXPROCS)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "n\tmethod\tworkers\tmedian s\tnodes/s\tnode\tsolutions/s\tspeedup\tefficiency\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.4f\t%.4g\t%s\t%.4g\t%.2f\t%.0f%%\t\n", r.N, r.Method, r.Workers, r.Median, r.NodesPerS, r.NodeUnit, r.SolsPerS, r.Speedup, 100*r.Efficiency)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(out, "\nnodes: queens placed (sym, mirror) or pairs of quarter placements tried (join); compare solutions/s across methods")
	return err
}
