package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"

	"github.com/nqueens/nqueens/internal/msg"
)

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
		Long: `table prints one row per n from FROM to TO, as each is counted, with the
total, unique, point-symmetric and rot90-symmetric counts, the method and
the seconds taken.

Formats (--format):
  text      aligned columns (default)
  csv       comma-separated with a header row
  json      one object per line, as count --json prints it (counts as
            exact decimal strings)
  markdown  a Markdown table
  bfile     an OEIS b-file of one sequence (--seq): "n a(n)" lines after
            "#" comment lines; total (A000170) starts at n = 0, unique
            (A002562), point (A032522) and rot90 (A033148) at n = 1

--meta adds workers, nodes, nodes_per_second, cpu, go_version and date
columns to csv (scripts/results.sh uses it to write results.csv).`,
		Example: "  nqueens table 1 14\n  nqueens table 0 16 --format bfile --seq total > b000170.txt\n  nqueens table 4 12 --format markdown\n  nqueens table 1 21 --format csv --memory 8GiB",
		Args:    exactArgs(2, "FROM and TO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEmpty(cmd, "memory"); err != nil {
				return err
			}
			from, err := parseN(args[0])
			if err != nil {
				return err
			}
			to, err := parseN(args[1])
			if err != nil {
				return err
			}
			if from > to {
				return usagef("FROM %d is larger than TO %d", from, to)
			}
			if err := checkWorkers(cmd, f.workers); err != nil {
				return err
			}
			if err := checkChoice("format", f.format, tableFormats); err != nil {
				return err
			}
			if _, ok := known.Sequences[f.seq]; !ok {
				return usagef("unknown sequence %s for --seq (accepted: total, unique, point, rot90)", msg.Quote(f.seq))
			}
			method, err := parseMethod(f.method)
			if err != nil {
				return err
			}
			if method == nqueens.Mirror && f.format == "bfile" && f.seq != "total" {
				return usagef("--seq %s needs --method sym or join: mirror counts the total only", f.seq)
			}
			return runTable(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), from, to, method, f)
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

var tableHeader = []string{"n", "total", "unique", "point_symmetric", "rot90_symmetric", "method", "seconds"}

// cells are a row's columns, as tableHeader names them.
func cells(c nqueens.Counts) []string {
	row := []string{strconv.Itoa(c.N), c.Total.String(), "", "", ""}
	if u, ok := c.Unique(); ok {
		row[2] = u.String()
	}
	if p, ok := c.PointSymmetric(); ok {
		r, _ := c.Rot90Symmetric()
		row[3], row[4] = p.String(), r.String()
	}
	return append(row, string(c.Method), strconv.FormatFloat(c.Elapsed.Seconds(), 'f', 3, 64))
}

func runTable(ctx context.Context, stdout, stderr io.Writer, from, to int, method nqueens.Method, f tableFlags) error {
	memory, err := memoryLimit(f.memory)
	if err != nil {
		return err
	}
	prog := f.progress.start(stderr, func(nqueens.Progress) string { return fmt.Sprintf("table %d..%d", from, to) })
	defer prog.Stop()
	w := &tableWriter{out: prog.Rows(stdout), f: f, from: from, to: to}
	began, next := false, from
	for c, err := range nqueens.Table(ctx, from, to, nqueens.WithMethod(method), nqueens.WithWorkers(f.workers),
		nqueens.WithMemory(memory), nqueens.WithProgress(prog.Update)) {
		if err != nil {
			prog.Stop()
			var stopped *nqueens.StoppedError
			if errors.As(err, &stopped) {
				return interrupted(ctx, fmt.Sprintf("stopped at n = %d", next))
			}
			return countError(err)
		}
		if !began {
			// Only once every row is planned and checked: nothing
			// misleading on stdout.
			if err := w.begin(); err != nil {
				return err
			}
			began = true
		}
		if err := w.row(c); err != nil {
			return err
		}
		next = c.N + 1
	}
	return nil
}

// tableWriter prints rows as they are counted.
type tableWriter struct {
	out      io.Writer
	f        tableFlags
	from, to int
	csv      *csv.Writer
	widths   []int
}

func (w *tableWriter) begin() error {
	var err error
	switch w.f.format {
	case "csv":
		w.csv = csv.NewWriter(w.out)
		h := tableHeader
		if w.f.meta {
			h = append(append([]string(nil), h...), metaHeader...)
		}
		err = w.csv.Write(h)
		w.csv.Flush()
		err = firstErr(err, w.csv.Error())
	case "markdown":
		_, err = fmt.Fprintf(w.out, "| %s |\n|%s\n", strings.Join(tableHeader, " | "), strings.Repeat("---:|", len(tableHeader)))
	case "text":
		w.widths = textWidths(w.from, w.to)
		_, err = io.WriteString(w.out, alignRight(tableHeader, w.widths))
	case "bfile":
		s := known.Sequences[w.f.seq]
		method := w.f.method
		if method == string(nqueens.Auto) {
			method = fmt.Sprintf("join for n = %d..%d, sym otherwise", partition.JoinFrom, partition.JoinMaxN)
			if w.to < partition.JoinFrom || w.from >= partition.JoinFrom && w.to <= partition.JoinMaxN {
				method = string(partition.Best(w.from)) // one method for every row
			}
		}
		_, err = fmt.Fprintf(w.out, "# %s: %s.\n# Computed by nqueens (github.com/nqueens/nqueens), method %s.\n", s.OEIS, s.Title, method)
	}
	return writeErr(err)
}

var metaHeader = []string{"workers", "nodes", "nodes_per_second", "cpu", "go_version", "date"}

func (w *tableWriter) row(c nqueens.Counts) error {
	var err error
	switch w.f.format {
	case "csv":
		row := cells(c)
		if w.f.meta {
			rate := 0.0
			if s := c.Elapsed.Seconds(); s > 0 {
				rate = c.Nodes.Float64() / s
			}
			row = append(row, strconv.Itoa(c.Workers), c.Nodes.String(), strconv.FormatFloat(rate, 'f', 0, 64),
				benchmark.Detect().CPU, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
		}
		err = w.csv.Write(row)
		w.csv.Flush()
		err = firstErr(err, w.csv.Error())
	case "json":
		return writeJSON(w.out, reportOf(c))
	case "markdown":
		_, err = fmt.Fprintf(w.out, "| %s |\n", strings.Join(cells(c), " | "))
	case "text":
		_, err = io.WriteString(w.out, alignRight(cells(c), w.widths))
	case "bfile":
		if c.N < known.Sequences[w.f.seq].Offset {
			return nil
		}
		v := c.Total
		switch w.f.seq {
		case "unique":
			v, _ = c.Unique()
		case "point":
			v, _ = c.PointSymmetric()
		case "rot90":
			v, _ = c.Rot90Symmetric()
		}
		_, err = fmt.Fprintf(w.out, "%d %s\n", c.N, v)
	}
	return writeErr(err)
}

// textWidths are the text format's column widths for rows from..to, known
// before the first row is counted so that rows stream: the widest of the
// header and the published counts (beyond n = 27, a digit more per n).
func textWidths(from, to int) []int {
	widths := make([]int, len(tableHeader))
	for i, h := range tableHeader {
		widths[i] = len(h)
	}
	widths[0] = max(widths[0], len(strconv.Itoa(to)))
	widths[5] = max(widths[5], len("mirror"))
	digits := func(x uint64) int { return len(strconv.FormatUint(x, 10)) }
	for n := from; n <= to; n++ {
		if n > known.MaxN {
			extra := n - known.MaxN
			widths[1] = max(widths[1], digits(known.Total[known.MaxN])+extra)
			widths[2] = max(widths[2], digits(known.Unique[known.MaxN])+extra)
			continue
		}
		widths[1] = max(widths[1], digits(known.Total[n]))
		widths[2] = max(widths[2], digits(known.Unique[n]))
		widths[3] = max(widths[3], digits(known.PointSym(n)))
		widths[4] = max(widths[4], digits(known.Rot90Sym[n]))
	}
	return widths
}

// alignRight writes cells right-aligned in their widths, two spaces apart.
func alignRight(cells []string, widths []int) string {
	var sb strings.Builder
	for i, c := range cells {
		sb.WriteString(strings.Repeat(" ", max(0, widths[i]+2-len(c))))
		sb.WriteString(c)
	}
	sb.WriteByte('\n')
	return sb.String()
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// writeErr marks a failed write of the output.
func writeErr(err error) error {
	if err != nil {
		return fmt.Errorf("writing the table: %w", err)
	}
	return nil
}
