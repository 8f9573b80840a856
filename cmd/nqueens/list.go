package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

type listFlags struct {
	board   bool
	json    bool
	limit   int64
	place   string
	workers int
}

func listCmd() *cobra.Command {
	var f listFlags
	cmd := &cobra.Command{
		Use:   "list N",
		Short: "Stream every solution of the N×N board",
		Long: `list prints every solution in lexicographic order, one per line as the
column of each row's queen ("1 3 0 2"); --board prints boards separated by
blank lines, --json one object per line. Solutions are searched in parallel
and printed in order as they are found; memory stays flat however many there
are, and a closed pipe (| head) ends the listing quietly.`,
		Example: "  nqueens list 8\n  nqueens list 10 | wc -l\n  nqueens list 12 --board --limit 3\n  nqueens list 8 --place 0:0",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, placed, err := boardArgs(cmd, args[0], f.workers, f.place)
			if err != nil {
				return err
			}
			if f.limit < 0 {
				return fmt.Errorf("--limit must be at least 0, got %d", f.limit)
			}
			return runList(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, placed, f, cmd.Flags().Changed("limit"))
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&f.board, "board", false, "print boards separated by blank lines")
	fs.BoolVar(&f.json, "json", false, `print {"n":N,"columns":[…]} per line`)
	fs.Int64Var(&f.limit, "limit", 0, "print at most this many solutions")
	placeFlag(fs, &f.place)
	workersFlag(fs, &f.workers)
	return cmd
}

// errLimit stops a listing that printed --limit solutions.
var errLimit = errors.New("limit reached")

func runList(ctx context.Context, stdout, stderr io.Writer, n int, placed []partition.Square, f listFlags, limited bool) error {
	noteConflict(stderr, placed)
	if limited && f.limit == 0 {
		return nil
	}
	plan, err := partition.Make(partition.Job{N: n, Method: partition.Mirror, Placed: placed, Every: true})
	if err != nil {
		return err
	}
	workers := f.workers
	if workers == 0 {
		workers = engine.DefaultWorkers()
	}
	format := appendColumns[uint8]
	switch {
	case f.json:
		format = appendJSON[uint8]
	case f.board:
		first := true
		format = func(dst []byte, cols []uint8) []byte {
			// Boards are separated by blank lines: one before every board
			// but the very first, which only the writer knows; each record
			// therefore ends with the blank line and the writer drops the
			// last one.
			_ = first
			return append(appendBoard(dst, cols), '\n')
		}
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var printed int64
	var pending []byte // the blank line after the last board, held back
	err = engine.List(ctx, n, plan.Tasks, workers, format, func(c engine.Chunk) error {
		start := 0
		for _, end := range c.Ends {
			if limited && printed == f.limit {
				return errLimit
			}
			rec := c.Data[start:end]
			start = end
			if f.board && !f.json {
				if pending != nil {
					if _, err := w.Write(pending); err != nil {
						return err
					}
				}
				pending = rec[len(rec)-1:]
				rec = rec[:len(rec)-1]
			}
			if _, err := w.Write(rec); err != nil {
				return err
			}
			printed++
		}
		return w.Flush()
	})
	switch {
	case err == nil, errors.Is(err, errLimit):
		return w.Flush()
	case errors.Is(err, syscall.EPIPE):
		return nil // the reader has gone: end quietly
	case ctx.Err() != nil:
		return interrupted(ctx, fmt.Sprintf("listing stopped after %d solutions", printed))
	}
	return &failure{err: err}
}
