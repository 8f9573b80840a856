package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// sequences names the columns a b-file can hold, with their OEIS numbers
// and first n (OEIS offset).
var sequences = map[string]struct {
	oeis   string
	title  string
	offset int
}{
	"total":  {"A000170", "Number of ways of placing n nonattacking queens on an n X n board", 0},
	"unique": {"A002562", "Number of ways of placing n nonattacking queens on an n X n board, up to rotations and reflections", 1},
	"point":  {"A032522", "Number of n-queens solutions symmetric under 180-degree rotation", 1},
	"rot90":  {"A033148", "Number of n-queens solutions symmetric under 90-degree rotation", 1},
}

var tableFormats = []string{"text", "csv", "json", "markdown", "bfile"}

type tableFlags struct {
	format   string
	seq      string
	method   string
	workers  int
	memory   string
	meta     bool
	progress progressFlags
}

func tableCmd() *cobra.Command {
	var f tableFlags
	cmd := &cobra.Command{
		Use:   "table FROM TO",
		Short: "Print the counts for every n from FROM to TO",
		Long: `table prints one row per n from FROM to TO with the total, unique,
point-symmetric and rot90-symmetric counts, the method and the seconds taken.

Formats (--format):
  text      aligned columns (default)
  csv       comma-separated with a header row
  json      one object per line, counts as exact decimal strings
  markdown  a Markdown table
  bfile     an OEIS b-file of one sequence (--seq): "n a(n)" lines after
            "#" comment lines; total (A000170) starts at n = 0, unique
            (A002562), point (A032522) and rot90 (A033148) at n = 1

--meta adds workers, nodes, nodes_per_second, cpu, go_version and date
columns to csv (scripts/results.sh uses it to write results.csv).`,
		Example: "  nqueens table 1 14\n  nqueens table 0 16 --format bfile --seq total > b000170.txt\n  nqueens table 4 12 --format markdown\n  nqueens table 1 21 --format csv --memory 8GiB",
		Args:    exactArgs(2, "FROM and TO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			from, err := parseN(args[0])
			if err != nil {
				return err
			}
			to, err := parseN(args[1])
			if err != nil {
				return err
			}
			if from > to {
				return fmt.Errorf("FROM %d is larger than TO %d", from, to)
			}
			if err := checkWorkers(cmd, f.workers); err != nil {
				return err
			}
			if err := checkChoice("format", f.format, tableFormats); err != nil {
				return err
			}
			if _, ok := sequences[f.seq]; !ok {
				return fmt.Errorf("unknown sequence %q for --seq (accepted: total, unique, point, rot90)", f.seq)
			}
			method, err := parseMethod(f.method, to)
			if err != nil {
				return err
			}
			if method == partition.Mirror && f.format == "bfile" && f.seq != "total" {
				return fmt.Errorf("--seq %s needs --method sym or join: mirror counts the total only", f.seq)
			}
			return runTable(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), from, to, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.format, "format", "f", "text", "output format: "+strings.Join(tableFormats, ", "))
	fs.StringVar(&f.seq, "seq", "total", "sequence for --format bfile: total, unique, point or rot90")
	fs.StringVarP(&f.method, "method", "m", "auto", "counting method: auto (per n: join from n = 12, sym below), join, sym (all four counts) or mirror (total only)")
	fs.BoolVar(&f.meta, "meta", false, "csv only: add workers, nodes, nodes_per_second, cpu, go_version and date columns")
	workersFlag(fs, &f.workers)
	memoryFlag(fs, &f.memory)
	f.progress.register(fs)
	return cmd
}

// tableRow is one n of a table.
type tableRow struct {
	N        int
	Method   partition.Method
	Classes  bool
	Counts   engine.Counts
	Workers  int
	Seconds  float64
	Finished time.Time
}

func (r tableRow) cells() []string {
	c := []string{strconv.Itoa(r.N), r.Counts.Total.String(), "", "", ""}
	if r.Classes {
		c[2], c[3], c[4] = r.Counts.Unique.String(), r.Counts.PointSym.String(), r.Counts.Rot90Sym.String()
	}
	return append(c, string(r.Method), strconv.FormatFloat(r.Seconds, 'f', 3, 64))
}

var tableHeader = []string{"n", "total", "unique", "point_symmetric", "rot90_symmetric", "method", "seconds"}

func runTable(ctx context.Context, stdout, stderr io.Writer, from, to int, f tableFlags) error {
	workers := f.workers
	if workers == 0 {
		workers = engine.DefaultWorkers()
	}
	limit, err := memoryLimit(f.memory)
	if err != nil {
		return err
	}
	// Plan every n first so the progress bar knows the whole cost, and
	// size every join row's memory before anything is counted.
	plans := make([]*partition.Plan, 0, to-from+1)
	var cost uint64
	var planBytes int64
	join := false
	for n := from; n <= to; n++ {
		method, err := parseMethod(f.method, n)
		if err != nil {
			return err
		}
		p, err := partition.Make(partition.Job{N: n, Method: method})
		if err != nil {
			return err
		}
		plans = append(plans, p)
		cost += p.Cost()
		planBytes += int64(len(p.Tasks)) * planTaskBytes
		join = join || p.Method == partition.Join
	}
	mems := make([]engine.JoinMemory, len(plans))
	for i, p := range plans {
		// The other rows' plans stay in memory beside this one's.
		others := planBytes - int64(len(p.Tasks))*planTaskBytes
		if mems[i], err = joinMemory(p, workers, limit, others); err != nil {
			return err
		}
	}
	if join {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	w := newTableWriter(stdout, f)
	if err := w.begin(from, to); err != nil {
		return err
	}
	prog := f.progress.start(stderr, fmt.Sprintf("table %d..%d", from, to), cost)
	defer prog.stop()
	for i, p := range plans {
		start := time.Now()
		c, err := engine.Run(ctx, p.N, p.Tasks, engine.Options{Workers: workers, JoinChunk: mems[i].Chunk,
			QuarterBudget: mems[i].CacheBudget, OnResult: prog.taskDone(p)})
		if err != nil {
			prog.stop()
			if ctx.Err() != nil {
				return interrupted(ctx, fmt.Sprintf("stopped at n = %d", p.N))
			}
			return &failure{err: err}
		}
		if err := finishCounts(p, &c); err != nil {
			return err
		}
		row := tableRow{N: p.N, Method: p.Method, Classes: p.Classes(), Counts: c, Workers: workers,
			Seconds: time.Since(start).Seconds(), Finished: time.Now().UTC()}
		if err := w.row(row); err != nil {
			return err
		}
	}
	prog.stop()
	return w.end()
}

// tableWriter prints rows as they are counted, except for text, which is
// aligned at the end.
type tableWriter struct {
	out io.Writer
	f   tableFlags
	csv *csv.Writer
	tw  *tabwriter.Writer
}

func newTableWriter(out io.Writer, f tableFlags) *tableWriter {
	return &tableWriter{out: out, f: f}
}

func (w *tableWriter) begin(from, to int) error {
	switch w.f.format {
	case "csv":
		w.csv = csv.NewWriter(w.out)
		h := tableHeader
		if w.f.meta {
			h = append(append([]string(nil), h...), metaHeader...)
		}
		return w.csv.Write(h)
	case "markdown":
		_, err := fmt.Fprintf(w.out, "| %s |\n|%s\n", strings.Join(tableHeader, " | "), strings.Repeat("---:|", len(tableHeader)))
		return err
	case "text":
		w.tw = tabwriter.NewWriter(w.out, 0, 0, 2, ' ', tabwriter.AlignRight)
		_, err := fmt.Fprintln(w.tw, strings.Join(tableHeader, "\t")+"\t")
		return err
	case "bfile":
		s := sequences[w.f.seq]
		method := w.f.method
		if method == "auto" {
			method = fmt.Sprintf("join for n = %d..%d, sym otherwise", partition.JoinFrom, partition.JoinMaxN)
			if to < partition.JoinFrom || from >= partition.JoinFrom && to <= partition.JoinMaxN {
				method = string(partition.Best(from)) // one method for every row
			}
		}
		_, err := fmt.Fprintf(w.out, "# %s: %s.\n# Computed by nqueens (github.com/nqueens/nqueens), method %s.\n", s.oeis, s.title, method)
		return err
	}
	return nil
}

var metaHeader = []string{"workers", "nodes", "nodes_per_second", "cpu", "go_version", "date"}

func (w *tableWriter) row(r tableRow) error {
	switch w.f.format {
	case "csv":
		cells := r.cells()
		if w.f.meta {
			rate := 0.0
			if r.Seconds > 0 {
				rate = r.Counts.Nodes.Float64() / r.Seconds
			}
			cells = append(cells, strconv.Itoa(r.Workers), r.Counts.Nodes.String(), strconv.FormatFloat(rate, 'f', 0, 64),
				cpuBrand(), runtime.Version(), r.Finished.Format("2006-01-02"))
		}
		if err := w.csv.Write(cells); err != nil {
			return err
		}
		w.csv.Flush()
		return w.csv.Error()
	case "json":
		obj := map[string]any{"n": r.N, "total": r.Counts.Total.String(), "method": string(r.Method), "seconds": r.Seconds}
		if r.Classes {
			obj["unique"], obj["point_symmetric"], obj["rot90_symmetric"] = r.Counts.Unique.String(), r.Counts.PointSym.String(), r.Counts.Rot90Sym.String()
		}
		return json.NewEncoder(w.out).Encode(obj)
	case "markdown":
		_, err := fmt.Fprintf(w.out, "| %s |\n", strings.Join(r.cells(), " | "))
		return err
	case "text":
		_, err := fmt.Fprintln(w.tw, strings.Join(r.cells(), "\t")+"\t")
		return err
	case "bfile":
		if r.N < sequences[w.f.seq].offset {
			return nil
		}
		v := map[string]engine.Uint128{"total": r.Counts.Total, "unique": r.Counts.Unique, "point": r.Counts.PointSym, "rot90": r.Counts.Rot90Sym}[w.f.seq]
		_, err := fmt.Fprintf(w.out, "%d %s\n", r.N, v)
		return err
	}
	return nil
}

func (w *tableWriter) end() error {
	if w.tw != nil {
		return w.tw.Flush()
	}
	return nil
}

// checkChoice rejects a flag value outside the accepted list.
func checkChoice(flag, value string, accepted []string) error {
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q (accepted: %s)", flag, value, strings.Join(accepted, ", "))
}
