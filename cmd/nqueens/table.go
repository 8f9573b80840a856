package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/report"
)

type tableFlags struct {
	format  string
	seq     string
	method  string
	workers int
	// workersSet: -j given
	workersSet bool
	memory     string
	device     string
	meta       bool
	pieces     pieceFlags
	progress   progressFlags
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

--piece superqueen|king|knight|rook and --torus count other pieces (see
count --help): the total alone; --format bfile writes superqueens
(A051223, from n = 1), kings (A002464, from n = 0), rooks (A000142, from
n = 0) and queens on the torus (A051906, from n = 1).

--meta adds workers, nodes, nodes_per_second, cpu, go_version and date
columns to csv (scripts/results.sh uses it to write results.csv).`,
		Example: "  nqueens table 1 14\n  nqueens table 0 16 --format bfile --seq total > b000170.txt\n  nqueens table 4 12 --format markdown\n  nqueens table 1 16 --piece superqueen --format bfile > b051223.txt\n  nqueens table 1 21 --format csv --memory 8GiB",
		Args:    exactArgs(2, "FROM and TO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEmpty(cmd, "memory", "piece"); err != nil {
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
			f.workersSet = cmd.Flags().Changed("workers")
			if err := checkChoice("format", f.format, report.Formats); err != nil {
				return err
			}
			if _, ok := known.Sequences[f.seq]; !ok {
				return usagef("unknown sequence %s for --seq (accepted: total, unique, point, rot90)", msg.Quote(f.seq))
			}
			// What a b-file can hold; the options' own rules are the
			// library's, which refuses an unknown piece or method.
			board := f.pieces.board()
			if _, err := partition.ParsePiece(f.pieces.piece); err != nil {
				return runTable(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), from, to, f)
			}
			if _, ok := known.SequenceOf(board, f.seq); f.format == "bfile" && !ok {
				if _, any := known.SequenceOf(board, "total"); any {
					return usagef("--seq %s: %s boards are counted with the mirror method, whose b-file is the total's (--seq total)", f.seq, board)
				}
				return usagef("no OEIS sequence lists the totals of %s boards: --format bfile writes queens, superqueens, kings, rooks and queens on the torus", board)
			}
			if m, err := partition.ParseMethod(f.method); err == nil && f.format == "bfile" && f.seq != "total" && !m.Classes() {
				return usagef("--seq %s needs --method sym or join: %s counts the total only", f.seq, m)
			}
			return runTable(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), from, to, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.format, "format", "f", "text", "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&f.seq, "seq", "total", "sequence for --format bfile: total, unique, point or rot90")
	fs.StringVarP(&f.method, "method", "m", "auto", "counting method: auto (per n: join from n = 12, sym below), join, sym (all four counts) or mirror (total only)")
	fs.BoolVar(&f.meta, "meta", false, "csv only: add workers, nodes, nodes_per_second, cpu, go_version and date columns")
	workersFlag(fs, &f.workers)
	memoryFlag(fs, &f.memory)
	deviceFlag(fs, &f.device)
	f.pieces.register(fs)
	f.progress.register(fs)
	return cmd
}

func runTable(ctx context.Context, stdout, stderr io.Writer, from, to int, f tableFlags) error {
	opts, err := countOptions(f.method, f.pieces, f.workers, f.workersSet, f.memory, nil)
	if err != nil {
		return err
	}
	board := f.pieces.board()
	prog := f.progress.start(stderr, func(nqueens.Progress) string { return fmt.Sprintf("table %d..%d%s", from, to, f.pieces.label()) })
	defer prog.Stop()
	asked := f.method
	if !f.pieces.queens() {
		asked = string(nqueens.Mirror)
	}
	w := &report.Table{Out: prog.Rows(stdout), Format: f.format, Seq: f.seq, Board: board, Method: asked, Meta: f.meta, From: from, To: to}
	began, next := false, from
	opts = append(opts, nqueens.WithProgress(prog.Update), nqueens.WithDevice(f.device))
	for c, err := range nqueens.Table(ctx, from, to, opts...) {
		if err != nil {
			prog.Stop()
			var stopped *nqueens.StoppedError
			if errors.As(err, &stopped) {
				return interrupted(ctx, fmt.Sprintf("stopped at n = %d", next))
			}
			return wordError(err, false)
		}
		if !began {
			// Only once every row is planned and checked: nothing
			// misleading on stdout.
			if err := w.Begin(); err != nil {
				return err
			}
			began = true
		}
		if err := w.Row(c); err != nil {
			return err
		}
		next = c.N + 1
	}
	return nil
}
