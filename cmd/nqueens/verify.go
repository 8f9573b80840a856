package main

import (
	"bufio"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/boardtext"
)

func verifyCmd() *cobra.Command {
	var pieces cli.Pieces
	cmd := &cobra.Command{
		Use:     "verify [BOARD...]",
		Short:   "Check boards: is each a solution?",
		Long:    longHelp("verify"),
		Example: "  nqueens verify '1 3 0 2'\n  nqueens solve 8 | nqueens verify\n  nqueens list 6 --board | nqueens verify",
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := cli.CheckEmpty(cmd, "piece"); err != nil {
				return err
			}
			// The empty board is valid: Verify refuses only the options.
			pieceOpts := pieces.VerifyOptions()
			if err := nqueens.Verify(nil, pieceOpts...); err != nil {
				return err
			}
			w := bufio.NewWriter(cmd.OutOrStdout())
			invalid, total := 0, 0
			judge := func(cols []int) {
				total++
				if c := nqueens.Verify(cols, pieceOpts...); c != nil {
					invalid++
					fmt.Fprintf(w, "invalid: %v\n", c)
				} else {
					fmt.Fprintln(w, "valid")
				}
			}
			var err, written error
			if len(args) > 0 {
				// Arguments are read whole: every one is parsed before
				// any verdict, so a bad one prints nothing on stdout.
				var boards [][]int
				if boards, err = boardtext.ParseAll(args); err == nil {
					for _, b := range boards {
						judge(b)
					}
				}
			} else {
				err = boardtext.Each(cmd.Context(), cmd.InOrStdin(), func(cols []int, more bool) error {
					judge(cols)
					if !more { // the next board may be a while: show these verdicts now
						written = w.Flush()
					}
					return written
				})
			}
			var be *boardtext.BoardError
			switch {
			case errors.As(err, &be):
				w.Flush()
				return cli.Usage(be)
			case err != nil && cmd.Context().Err() != nil:
				w.Flush()
				return cli.Interrupted(cmd.Context(), "stopped while reading stdin")
			case written != nil:
				return fmt.Errorf("writing the verdicts: %w", written)
			case err != nil:
				return fmt.Errorf("reading stdin: %w", err)
			}
			if err := w.Flush(); err != nil {
				return fmt.Errorf("writing the verdicts: %w", err)
			}
			if total == 0 {
				return cli.Usagef("no board on stdin (give boards as arguments or on stdin, separated by blank lines)")
			}
			if invalid > 0 {
				return fmt.Errorf("%d of %d boards invalid", invalid, total)
			}
			return nil
		},
	}
	pieces.Register(cmd.Flags())
	return cmd
}
