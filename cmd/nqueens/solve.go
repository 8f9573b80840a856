package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// Limits of solve.
const (
	maxSolveN = 10_000_000 // columns: 8 bytes a row in memory, ~8 on stdout
	maxBoardN = 4096       // a printed board has n² squares
)

var solveFormats = []string{"board", "columns"}

func solveCmd() *cobra.Command {
	var format, place string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "solve N",
		Short: "Print one solution of the N×N board",
		Long: fmt.Sprintf(`solve prints one solution: as a board (default; one row per line, squares
separated by spaces, ". Q . ."), as the column of each row's queen
(--format columns: "1 3 0 2"), or as JSON (--json).

Without --place the solution comes from an explicit construction, instantly
for any N from 4 up to %d (boards print up to N = %d). With --place the
search finds the first solution in lexicographic order that holds the
placed queens (N up to %d; the n-queens completion problem is NP-complete,
so large boards with unlucky placements can take long). N = 2 and 3 have no
solution: exit 1.`, maxSolveN, maxBoardN, partition.MaxN),
		Example: "  nqueens solve 8\n  nqueens solve 1000000 --format columns > big.txt\n  nqueens solve 8 --place 0:0,1:4",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := strconv.Atoi(args[0])
			if err != nil || n < 0 || n > maxSolveN {
				return fmt.Errorf("board size %q out of range (accepted: 0..%d)", args[0], maxSolveN)
			}
			if err := checkChoice("format", format, solveFormats); err != nil {
				return err
			}
			if format == "board" && !asJSON && n > maxBoardN {
				return fmt.Errorf("a %d×%d board is too large to print (boards print up to N = %d); use --format columns or --json", n, n, maxBoardN)
			}
			var placed []partition.Square
			if place != "" {
				if n > partition.MaxN {
					return fmt.Errorf("--place works up to N = %d, got %d", partition.MaxN, n)
				}
				if placed, err = parsePlacement(place, n); err != nil {
					return err
				}
			}
			return runSolve(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, placed, format, asJSON)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&format, "format", "f", "board", "output: board or columns")
	fs.BoolVar(&asJSON, "json", false, `print {"n":N,"columns":[…]}`)
	placeFlag(fs, &place)
	return cmd
}

func runSolve(ctx context.Context, stdout, stderr io.Writer, n int, placed []partition.Square, format string, asJSON bool) error {
	var cols []int
	if placed == nil {
		cols = Construct(n)
	} else {
		noteConflict(stderr, placed)
		found, err := firstCompletion(ctx, n, placed)
		if err != nil {
			return err
		}
		cols = found
	}
	if cols == nil {
		what := fmt.Sprintf("the %d×%d board has no solution", n, n)
		if placed != nil {
			what = fmt.Sprintf("no solution of the %d×%d board holds the placed queens", n, n)
		}
		return failf("%s", what)
	}
	w := bufio.NewWriterSize(stdout, 1<<16)
	var buf []byte
	switch {
	case asJSON:
		buf = appendJSON(buf, cols)
	case format == "columns":
		buf = appendColumns(buf, cols)
	default:
		buf = appendBoard(buf, cols)
	}
	if _, err := w.Write(buf); err != nil {
		return err
	}
	return w.Flush()
}

// firstCompletion searches the lexicographically first solution holding
// the placed queens, or returns nil if there is none.
func firstCompletion(ctx context.Context, n int, placed []partition.Square) ([]int, error) {
	plan, err := partition.Make(partition.Job{N: n, Method: partition.Mirror, Placed: placed, Every: true})
	if err != nil {
		return nil, err
	}
	for i := range plan.Tasks {
		if ctx.Err() != nil {
			return nil, interrupted(ctx, "search stopped")
		}
		var found []int
		engine.Each(n, &plan.Tasks[i], func(c []uint8) bool {
			found = make([]int, n)
			for r, v := range c {
				found[r] = int(v)
			}
			return false
		})
		if found != nil {
			return found, nil
		}
	}
	return nil, nil
}

// Construct returns a solution of the n×n board from the classic explicit
// construction (Hoffman, Loessi and Moore, 1969), or nil for n = 2 and 3.
// In 1-based terms: the even columns 2, 4, … then the odd ones 1, 3, …;
// when n mod 6 = 2, the odd ones run 3, 1, 7, 9, …, 5; when n mod 6 = 3, the
// even ones run 4, 6, …, 2 and the odd ones 5, 7, …, 1, 3.
func Construct(n int) []int {
	switch n {
	case 0:
		return []int{}
	case 1:
		return []int{0}
	case 2, 3:
		return nil
	}
	var evens, odds []int
	for c := 2; c <= n; c += 2 {
		evens = append(evens, c)
	}
	for c := 1; c <= n; c += 2 {
		odds = append(odds, c)
	}
	switch n % 6 {
	case 2:
		// swap 1 and 3, move 5 to the end
		odds[0], odds[1] = odds[1], odds[0]
		odds = append(append(odds[:2:2], odds[3:]...), 5)
	case 3:
		// move 2 to the end of the evens, 1 and 3 to the end of the odds
		evens = append(evens[1:], 2)
		odds = append(odds[2:], 1, 3)
	}
	cols := make([]int, 0, n)
	for _, c := range append(evens, odds...) {
		cols = append(cols, c-1)
	}
	return cols
}
