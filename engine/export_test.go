package engine

import (
	"fmt"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// SearchPieces counts a CountPieces plan by the pieces' search kernel
// alone (for rooks too, without their closed form), for the tests.
func SearchPieces(p *partition.Plan) uint64 {
	var total uint64
	rules := p.Piece.Rules(p.Torus)
	for _, t := range p.Tasks {
		a := rules.After(p.N, t.Prefix)
		sols, _ := walkPieces(p.N, rules, t.Bans, a, len(t.Prefix))
		total += sols * t.Weight
	}
	return total
}

// Kings and SweepRows are the closed forms' kernels, for the tests.
var (
	Kings     = kings
	SweepRows = sweepRows
)

// PiecesTwins counts every task of a CountPieces plan with the kernel the
// engine runs (walkShort, walkTorus on the torus) and their twin
// walkPieces, and returns the first task where they differ (sols or
// nodes), or -1.
func PiecesTwins(p *partition.Plan) int {
	rules := p.Piece.Rules(p.Torus)
	walk := walkShort
	if rules.Torus {
		walk = walkTorus
	}
	for i, t := range p.Tasks {
		a := rules.After(p.N, t.Prefix)
		s1, n1 := walk(p.N, rules, t.Bans, a, len(t.Prefix))
		s2, n2 := walkPieces(p.N, rules, t.Bans, a, len(t.Prefix))
		if s1 != s2 || n1 != n2 {
			return i
		}
	}
	return -1
}

// RunTask counts the plan's task i on the calling goroutine, with the
// join's default buffers and a cache of its own: the tests' way to count
// one task.
func RunTask(plan *partition.Plan, i int) (Result, error) {
	if plan == nil || i < 0 || i >= len(plan.Tasks) {
		return Result{}, fmt.Errorf("%w: no task %d in the plan", errPlan, i)
	}
	t := &plan.Tasks[i]
	if err := checkTask(plan.N, t); err != nil {
		return Result{}, err
	}
	var js *joinScratch // the backtracking kernels need none: no allocation
	if t.Kind == board.Halves {
		js = newJoinScratch(defaultJoinChunk)
		js.cache = newQuarterCache(plan.N, defaultQuarterBudget)
	}
	r := runTask(plan, t, js)
	r.Task = i
	return r, nil
}

// MinMemory is minMemory, for the external tests.
var MinMemory = minMemory

// The errors Run and Each wrap, for the tests.
var (
	ErrWorkers = errWorkers
	ErrPlan    = errPlan
	ErrList    = errList
)
