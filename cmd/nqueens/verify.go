package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/boardtext"
)

func verifyCmd() *cobra.Command {
	var pieces pieceFlags
	cmd := &cobra.Command{
		Use:   "verify [BOARD...]",
		Short: "Check boards: is each a solution?",
		Long: `verify reads boards from its arguments (one board each) or, without
arguments, from stdin (boards separated by blank lines). A board is rows of
'.' and 'Q', with or without spaces between squares, or the 0-based column of
each row's queen ("1 3 0 2" or "1,3,0,2"). For each board it prints "valid"
or "invalid: " and the first conflict reading from the top ("rows 2 and 5
share a diagonal").

--piece and --torus check other pieces' boards ('Q' marks a piece):
"rows 0 and 1 are a knight's move apart".

Exit codes: 0 all boards valid, 1 some invalid, 2 unreadable input.`,
		Example: "  nqueens verify '1 3 0 2'\n  nqueens solve 8 | nqueens verify\n  nqueens list 6 --board | nqueens verify",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEmpty(cmd, "piece"); err != nil {
				return err
			}
			// The empty board is valid: Verify refuses only the options.
			pieceOpts := pieces.options()
			if err := nqueens.Verify(nil, pieceOpts...); err != nil {
				return err
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			invalid, total := 0, 0
			judge := func(b string) error {
				total++
				cols, err := boardtext.Parse(b)
				if err != nil {
					return usagef("board %d: %v", total, err)
				}
				if c := nqueens.Verify(cols, pieceOpts...); c != nil {
					invalid++
					fmt.Fprintf(w, "invalid: %v\n", c)
				} else {
					fmt.Fprintln(w, "valid")
				}
				return nil
			}
			if len(args) > 0 {
				// Arguments are read whole: every one is parsed before
				// any verdict, so a bad one prints nothing on stdout.
				for i, b := range args {
					if _, err := boardtext.Parse(b); err != nil {
						return usagef("board %d: %v", i+1, err)
					}
				}
				for _, b := range args {
					judge(b)
				}
			} else if err := eachBoard(cmd.Context(), cmd.InOrStdin(), w, judge); err != nil {
				w.Flush()
				return err
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing the verdicts: %w", err)
			}
			if total == 0 {
				return usagef("no board on stdin (give boards as arguments or on stdin, separated by blank lines)")
			}
			if invalid > 0 {
				return fmt.Errorf("%d of %d boards invalid", invalid, total)
			}
			return nil
		},
	}
	pieces.register(cmd.Flags())
	return cmd
}

// eachBoard hands the boards on r ([nqueens.Boards]) to judge as each is
// read, and stops with judge's error, a read error, or when ctx is done
// (a signal while a pipe's writer is still thinking: the read goes on in
// a goroutine). Verdicts
// written to w are flushed whenever no further board is waiting.
func eachBoard(ctx context.Context, r io.Reader, w *bufio.Writer, judge func(string) error) error {
	boards := make(chan string, 64)
	errc := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(boards)
		for b, err := range boardtext.Split(r) {
			if err != nil {
				errc <- err
				return
			}
			select {
			case boards <- b:
			case <-stop:
				return
			}
		}
		errc <- nil
	}()
	for {
		select {
		case b, ok := <-boards:
			if !ok {
				if err := <-errc; err != nil {
					return fmt.Errorf("reading stdin: %w", err)
				}
				return nil
			}
			if err := judge(b); err != nil {
				return err
			}
			if len(boards) == 0 {
				if err := w.Flush(); err != nil {
					return fmt.Errorf("writing the verdicts: %w", err)
				}
			}
		case <-ctx.Done():
			return interrupted(ctx, "stopped while reading stdin")
		}
	}
}
