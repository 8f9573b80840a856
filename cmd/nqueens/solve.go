package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/board"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

var solveFormats = []string{"board", "columns"}

func solveCmd() *cobra.Command {
	var format, place string
	var asJSON bool
	var pieces cli.Pieces
	cmd := &cobra.Command{
		Use:     "solve N",
		Short:   "Print one solution of the N×N board",
		Long:    longHelp("solve"),
		Example: "  nqueens solve 8\n  nqueens solve 1000000 --format columns > big.txt\n  nqueens solve 8 --place 0:0,1:4",
		Args:    cli.ExactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "place", "piece"); err != nil {
				return err
			}
			n, err := cli.ParseN(args[0], board.MaxSolveN)
			if err != nil {
				return err
			}
			pieceOpts := pieces.Options()
			if err := cli.CheckChoice("format", format, solveFormats); err != nil {
				return err
			}
			if format == "board" && !asJSON && n > report.MaxBoardN {
				return cli.Usagef("a %d×%d board is too large to print (boards print up to N = %d); use --format columns or --json", n, n, report.MaxBoardN)
			}
			placed, err := cli.Placement(place, n, pieces.Queens(), cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			return runSolve(cmd.Context(), cmd.OutOrStdout(), n, placed, format, asJSON, pieceOpts, pieces.Queens())
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&format, "format", "f", "board", "output: board or columns")
	fs.BoolVar(&asJSON, "json", false, `print {"n":N,"columns":[…]}`)
	cli.PlaceFlag(fs, &place)
	pieces.Register(fs)
	return cmd
}

func runSolve(ctx context.Context, stdout io.Writer, n int, placed []nqueens.Square, format string, asJSON bool, pieceOpts []nqueens.BoardOption, queens bool) error {
	cols, err := nqueens.Solve(ctx, n, append(pieceOpts, nqueens.WithPlaced(placed...))...)
	switch {
	case errors.Is(err, nqueens.ErrNoSolution) && placed != nil:
		return fmt.Errorf("no solution of the %d×%d board holds the placed %s", n, n, map[bool]string{true: "queens", false: "pieces"}[queens])
	case errors.Is(err, nqueens.ErrNoSolution):
		return fmt.Errorf("the %d×%d board has no solution", n, n)
	case err != nil && ctx.Err() != nil:
		return cli.Interrupted(ctx, "search stopped")
	case err != nil:
		return err
	}
	var buf []byte
	switch {
	case asJSON:
		buf = report.JSON(buf, cols)
	case format == "columns":
		buf = report.Columns(buf, cols)
	default:
		buf = report.Board(buf, cols)
	}
	if _, err := stdout.Write(buf); err != nil {
		return fmt.Errorf("writing the solution: %w", err)
	}
	return nil
}
