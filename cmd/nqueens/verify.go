package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/boardtext"
)

func verifyCmd() *cobra.Command {
	var pieces pieceFlags
	cmd := &cobra.Command{
		Use:   "verify [BOARD...]",
		Short: "Check boards: is each a solution?",
		Long: fmt.Sprintf(`verify reads boards from its arguments (one board each) or, without
arguments, from stdin (boards separated by blank lines). A board is rows of
'.' and 'Q', with or without spaces between squares, or the 0-based column of
each row's queen ("1 3 0 2" or "1,3,0,2"). For each board it prints "valid"
or "invalid: " and the first conflict reading from the top ("rows 2 and 5
share a diagonal").

--piece and --torus check other pieces' boards ('Q' marks a piece):
"rows 0 and 1 are a knight's move apart".

Stdin is read one board at a time: a board of rows is refused as soon as
it has more rows than its first row has squares, or a row of another
length; any board past %d rows or columns (the largest solve writes)
as soon as it passes that.

Exit codes: 0 all boards valid, 1 some invalid, 2 unreadable input.`, boardtext.MaxN),
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
			judge := func(cols []int) {
				total++
				if c := nqueens.Verify(cols, pieceOpts...); c != nil {
					invalid++
					fmt.Fprintf(w, "invalid: %v\n", c)
				} else {
					fmt.Fprintln(w, "valid")
				}
			}
			if len(args) > 0 {
				// Arguments are read whole: every one is parsed before
				// any verdict, so a bad one prints nothing on stdout.
				boards := make([][]int, len(args))
				for i, b := range args {
					cols, err := boardtext.Parse(b)
					if err != nil {
						return usagef("board %d: %v", i+1, unwrapSyntax(err))
					}
					boards[i] = cols
				}
				for _, b := range boards {
					judge(b)
				}
			} else if err := eachBoard(cmd.Context(), cmd.InOrStdin(), w, judge, &total); err != nil {
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

// eachBoard hands the boards on r ([boardtext.Reader]) to judge as each
// is read, one at a time (the reader waits for judge before it reads the
// next, so memory holds one board whatever the input), and stops with
// an unreadable board (a usage error naming it: judged is
// the count of boards before it), a read error, or when ctx is done (a
// signal while a pipe's writer is still thinking: the read goes on in a
// goroutine). Verdicts written to w are flushed whenever no further input
// is waiting.
func eachBoard(ctx context.Context, r io.Reader, w *bufio.Writer, judge func([]int), judged *int) error {
	type board struct {
		cols []int
		more bool // input waiting after it
		err  error
	}
	boards := make(chan board)
	next := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(boards)
		br := boardtext.NewReader(r)
		for {
			cols, err := br.Next()
			if err == io.EOF {
				return
			}
			select {
			case boards <- board{cols, br.Buffered(), err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
			select {
			case <-next:
			case <-stop:
				return
			}
		}
	}()
	for {
		select {
		case b, ok := <-boards:
			switch {
			case !ok:
				return nil
			case errors.Is(b.err, boardtext.ErrSyntax):
				return usagef("board %d: %v", *judged+1, unwrapSyntax(b.err))
			case b.err != nil:
				return fmt.Errorf("reading stdin: %w", b.err)
			}
			judge(b.cols)
			if !b.more {
				if err := w.Flush(); err != nil {
					return fmt.Errorf("writing the verdicts: %w", err)
				}
			}
			next <- struct{}{}
		case <-ctx.Done():
			return interrupted(ctx, "stopped while reading stdin")
		}
	}
}

// unwrapSyntax drops boardtext's "unreadable board: " from a message that
// names the board already.
func unwrapSyntax(err error) string {
	return strings.TrimPrefix(err.Error(), boardtext.ErrSyntax.Error()+": ")
}
