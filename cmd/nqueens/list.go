package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/report"
)

type listFlags struct {
	board  bool
	json   bool
	limit  int64
	place  string
	pieces pieceFlags
}

func listCmd() *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:   "list N",
		Short: "Stream every solution of the N×N board",
		Long: `list prints every solution in lexicographic order, one per line as the
column of each row's queen ("1 3 0 2"); --board prints boards separated by
blank lines, --json one object per line. Solutions stream as the search
finds them (one search, in order): memory stays flat however many there
are, and a closed pipe (| head) ends the listing quietly. The first line
comes when the search finds the lexicographically first solution: at once
up to N = 30 or so (list 30 | head -1: 0.8 s here), but that search grows
fast past it (list 64 --limit 2 prints nothing in 10 minutes; 'nqueens
solve N' constructs a solution of any N at once).`,
		Example: "  nqueens list 8\n  nqueens list 10 | wc -l\n  nqueens list 12 --board --limit 3\n  nqueens list 8 --place 0:0",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEmpty(cmd, "place", "piece"); err != nil {
				return err
			}
			n, placed, err := boardArgs(args[0], f.place)
			if err != nil {
				return err
			}
			if f.limit < 0 {
				return usagef("--limit must be at least 0, got %d", f.limit)
			}
			return runList(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, placed, f, cmd.Flags().Changed("limit"))
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.board, "board", false, "print boards separated by blank lines")
	fs.BoolVar(&f.json, "json", false, `print {"n":N,"columns":[…]} per line`)
	fs.Int64Var(&f.limit, "limit", 0, "print at most this many solutions")
	placeFlag(fs, &f.place)
	f.pieces.register(fs)
	return cmd
}

func runList(ctx context.Context, stdout, stderr io.Writer, n int, placed []nqueens.Square, f listFlags, limited bool) error {
	pieceOpts := f.pieces.options()
	if f.pieces.queens() {
		noteConflict(stderr, placed)
	}
	if limited && f.limit == 0 {
		return nil
	}
	format := report.Columns
	switch {
	case f.json:
		format = report.JSON
	case f.board:
		format = report.Board
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var printed int64
	var buf []byte
	flushed := time.Now()
	for cols, err := range nqueens.List(ctx, n, append(pieceOpts, nqueens.WithPlaced(placed...))...) {
		if err != nil {
			if ctx.Err() != nil {
				w.Flush()
				return interrupted(ctx, fmt.Sprintf("listing stopped after %d solutions", printed))
			}
			return err
		}
		buf = buf[:0]
		if f.board && !f.json && printed > 0 {
			buf = append(buf, '\n') // boards are separated by blank lines
		}
		buf = format(buf, cols)
		if _, err := w.Write(buf); err != nil {
			return listWriteError(err)
		}
		if printed++; limited && printed == f.limit {
			break
		}
		if now := time.Now(); printed == 1 || now.Sub(flushed) > 100*time.Millisecond {
			// The first line goes out at once, then at least ten times a
			// second (and whenever the buffer fills).
			if err := w.Flush(); err != nil {
				return listWriteError(err)
			}
			flushed = now
		}
	}
	return listWriteError(w.Flush())
}

// listWriteError ends a listing whose reader has gone quietly.
func listWriteError(err error) error {
	if err == nil || errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return fmt.Errorf("writing the solutions: %w", err)
}
