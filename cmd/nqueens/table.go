package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

type tableFlags struct {
	cli.Counting
	format   string
	seq      string
	device   string
	tuning   string
	meta     bool
	progress cli.Progress
}

func tableCmd() *cobra.Command {
	var f tableFlags
	cmd := &cobra.Command{
		Use:     "table FROM TO",
		Short:   "Print the counts for every n from FROM to TO",
		Long:    longHelp("table"),
		Example: "  nqueens table 1 14\n  nqueens table 0 16 --format bfile --seq total > b000170.txt\n  nqueens table 4 12 --format markdown\n  nqueens table 1 16 --piece superqueen --format bfile > b051223.txt\n  nqueens table 1 21 --format csv --memory 8GiB",
		Args:    cli.ExactArgs(2, "FROM and TO"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "memory", "piece"); err != nil {
				return err
			}
			from, err := cli.ParseN(args[0], nqueens.MaxN)
			if err != nil {
				return err
			}
			to, err := cli.ParseN(args[1], nqueens.MaxN)
			if err != nil {
				return err
			}
			if from > to {
				return cli.Usagef("FROM %d is larger than TO %d", from, to)
			}
			common, err := f.Options(cmd.Flags(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			asked := f.Method
			if !f.Pieces.Queens() {
				asked = string(nqueens.Mirror)
			}
			if cmd.Flags().Changed("seq") && f.format != "bfile" {
				return cli.Usagef("--seq picks the sequence of --format bfile, and --format %s prints every sequence: give --format bfile too, or leave out --seq", f.format)
			}
			w := &report.Table{Format: f.format, Seq: f.seq, Board: f.Pieces.Board(), Method: asked, Meta: f.meta, From: from, To: to}
			if err := w.Check(f.Pieces.Piece); err != nil {
				return cli.Usage(err)
			}
			return runTable(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), w, append(common.Table(), nqueens.WithDevice(f.device), nqueens.WithDeviceTuning(f.tuning)), f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.format, "format", "f", "text", "output format: "+strings.Join(report.Formats, ", "))
	fs.StringVar(&f.seq, "seq", "total", "sequence for --format bfile: total, unique, point or rot90")
	f.Register(fs, "counting method: auto (per n: join from n = 12, sym below), join, sym (all four counts) or mirror (total only)")
	fs.BoolVar(&f.meta, "meta", false, "csv only: add workers, nodes, nodes_per_second, cpu, go_version and date columns")
	cli.DeviceFlag(fs, &f.device)
	cli.DeviceTuningFlag(fs, &f.tuning)
	f.progress.Register(fs)
	return cmd
}

func runTable(ctx context.Context, stdout, stderr io.Writer, w *report.Table, opts []nqueens.TableOption, f tableFlags) error {
	prog := f.progress.Start(stderr, func(nqueens.Progress) string { return fmt.Sprintf("table %d..%d%s", w.From, w.To, f.Pieces.Label()) })
	defer prog.Stop()
	w.Out = prog.Rows(stdout)
	began, next := false, w.From
	for c, err := range nqueens.Table(ctx, w.From, w.To, append(opts, nqueens.WithProgress(prog.Update))...) {
		if err != nil {
			prog.Stop()
			var stopped *nqueens.StoppedError
			if errors.As(err, &stopped) {
				return cli.Interrupted(ctx, fmt.Sprintf("stopped at n = %d", next))
			}
			return cli.Word(err, false)
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
