package engine

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// EachSolution calls yield with every completion of the plan's task i, as the
// column of each row's queen, in lexicographic order; it stops early when
// yield returns false, and with ctx's error when ctx is done (checked
// every few thousand queens placed, solutions or not). The slice is reused
// between calls. Only plans made with [partition.Job].Every list solutions
// (their tasks search every solution, without symmetry); any other task is
// [errList].
func EachSolution(ctx context.Context, plan *partition.Plan, i int, yield func(cols []uint8) bool) error {
	if plan == nil || i < 0 || i >= len(plan.Tasks) {
		return fmt.Errorf("%w: no task %d in the plan", errPlan, i)
	}
	t := &plan.Tasks[i]
	if err := checkTask(plan.N, t); err != nil {
		return err
	}
	if t.Kind != board.CountBanned && t.Kind != board.CountPieces || t.Weight != 1 {
		return fmt.Errorf("%w: task %q stands for more solutions than it searches (plan with partition.Job.Every)", errList, t.ID)
	}
	n, rules := plan.N, plan.Piece.Rules(plan.Torus)
	cols := make([]uint8, n)
	a := rules.After(n, t.Prefix)
	copy(cols, t.Prefix)
	ban := (*[maxRows]uint64)(t.Bans)
	var placed uint
	var err error
	var rec func(row int, a board.Attacks) bool
	rec = func(row int, a board.Attacks) bool {
		if row == n {
			return yield(cols)
		}
		for free := a.Free() &^ ban[row&63]; free != 0; free &= free - 1 {
			if placed++; placed%4096 == 0 {
				if err = ctx.Err(); err != nil {
					return false
				}
			}
			bit := free & -free
			cols[row] = uint8(bits.TrailingZeros64(bit))
			if !rec(row+1, rules.Place(n, a, bit)) {
				return false
			}
		}
		return true
	}
	rec(len(t.Prefix), a)
	return err
}
