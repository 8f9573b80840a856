package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
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
			pieceOpts, _, err := pieces.check()
			if err != nil {
				return err
			}
			boards := args
			if len(args) == 0 {
				var err error
				if boards, err = readStdin(cmd.Context(), cmd.InOrStdin()); err != nil {
					return err
				}
				if len(boards) == 0 {
					return usagef("no board on stdin (give boards as arguments or on stdin, separated by blank lines)")
				}
			}
			// Read every board before judging any, so unreadable input
			// prints nothing misleading on stdout.
			parsed := make([][]int, len(boards))
			for i, b := range boards {
				cols, err := nqueens.ParseBoard(b)
				if err != nil {
					return usagef("board %d: %v", i+1, err)
				}
				parsed[i] = cols
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			invalid := 0
			for _, cols := range parsed {
				if c := nqueens.Verify(cols, pieceOpts...); c != nil {
					invalid++
					fmt.Fprintf(w, "invalid: %v\n", c)
				} else {
					fmt.Fprintln(w, "valid")
				}
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing the verdicts: %w", err)
			}
			if invalid > 0 {
				return fmt.Errorf("%d of %d boards invalid", invalid, len(parsed))
			}
			return nil
		},
	}
	pieces.register(cmd.Flags())
	return cmd
}

// readStdin reads the boards on stdin, or returns when ctx is done (a
// signal while a pipe's writer is still thinking).
func readStdin(ctx context.Context, r io.Reader) ([]string, error) {
	type result struct {
		boards []string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		b, err := nqueens.SplitBoards(r)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return nil, fmt.Errorf("reading stdin: %w", res.err)
		}
		return res.boards, nil
	case <-ctx.Done():
		return nil, interrupted(ctx, "stopped while reading stdin")
	}
}
