package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

type listFlags struct {
	board  bool
	format string
	json   bool
	limit  int64
	place  string
	pieces cli.Pieces
}

func listCmd() *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:     "list N",
		Short:   "Stream every solution of the N×N board",
		Long:    longHelp("list"),
		Example: "  nqueens list 8\n  nqueens list 10 | wc -l\n  nqueens list 12 --format board --limit 3\n  nqueens list 8 --place 0:0",
		Args:    cli.ExactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "place", "piece"); err != nil {
				return err
			}
			if err := cli.CheckChoice("format", f.format, solveFormats); err != nil {
				return err
			}
			if f.board {
				if cmd.Flags().Changed("format") && f.format != "board" {
					return cli.Usagef("--board and --format %s ask for two outputs: give one", f.format)
				}
				f.format = "board"
			}
			if f.limit < 0 {
				return cli.Usagef("--limit must be at least 0, got %d", f.limit)
			}
			n, placed, err := cli.Board(args[0], f.place, f.pieces.Queens(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return runList(cmd.Context(), cmd.OutOrStdout(), n, placed, f, cmd.Flags().Changed("limit"))
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.format, "format", "f", "columns", "output: columns or board (boards separated by blank lines)")
	fs.BoolVar(&f.board, "board", false, "print boards separated by blank lines: --format board")
	fs.BoolVar(&f.json, "json", false, `print {"n":N,"columns":[…]} per line`)
	fs.Int64Var(&f.limit, "limit", 0, "print at most this many solutions")
	cli.PlaceFlag(fs, &f.place)
	f.pieces.Register(fs)
	return cmd
}

func runList(ctx context.Context, stdout io.Writer, n int, placed []nqueens.Square, f listFlags, limited bool) error {
	if limited && f.limit == 0 {
		return nil
	}
	out := report.Solutions{Format: report.Columns, Limit: f.limit}
	switch {
	case f.json:
		out.Format = report.JSON
	case f.format == "board":
		out.Format, out.Blank = report.Board, true
	}
	printed, err := out.Write(stdout, nqueens.List(ctx, n, append(f.pieces.Options(), nqueens.WithPlaced(placed...))...))
	if err != nil && ctx.Err() != nil {
		return cli.Interrupted(ctx, fmt.Sprintf("listing stopped after %d solutions", printed))
	}
	return err
}
