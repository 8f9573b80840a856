package nqueens

import (
	"cmp"
	"context"
	"math"
	"time"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// This file is the cost model: what counting the queens of a board costs
// before any of it is counted, from the published counts and the costs
// per solution measured on a reference machine. [Estimate] falls back on
// it where a sample's tasks are too long to count, [Forecast] decides
// from it at no cost whether a count may be long, and a run skips a
// grace period that no running task could finish in.

// simkinAlpha is α in a(n) = ((1 + o(1)) n e^(−α))^n (Simkin, "The number
// of n-queens configurations", 2021): a(n+1)/a(n) ≈ (n+1) e^(1−α), which
// gives a(26)/a(25) and a(27)/a(26) within 0.2%.
const simkinAlpha = 1.944

// solutions returns a(n), the number of n-queens solutions: the published
// value to n = 27, then extrapolated by a(n+1)/a(n) = (n+1) e^(1−α) (a(28)
// ≈ 2.56 × 10^18).
func solutions(n int) float64 {
	if n <= known.MaxN {
		return float64(known.Total[max(0, n)])
	}
	a := float64(known.Total[known.MaxN])
	for m := known.MaxN + 1; m <= n; m++ {
		a *= float64(m) * math.Exp(1-simkinAlpha)
	}
	return a
}

// perSolution is a method's cost per solution of n on one core of the
// reference machine (a 2-core AMD EPYC), in core-nanoseconds, and the
// factor its 95% interval spans either way. The join's from n = 21 on are
// [refJoin]'s where it has n; elsewhere (below n = 24, where fixed costs
// weigh, and past the sampled n = 28) its nearest of the same parity
// past 28 (an odd board has one middle column, an even one two: n = 27's
// and n = 28's), twice as uncertain.
// The backtracking methods' are n = 16's (sym 80-123 ns, mirror 133-223
// ns a solution on the machines of docs/performance.md), grown by half
// for larger boards, with a factor of 4 either way.
func perSolution(n int, method partition.Method) (ns, factor float64) {
	switch method {
	case partition.Join:
		if r, ok := refJoin[n]; ok {
			return r.ns, 1 + r.err
		}
		near := refJoin[28]
		switch {
		case n < 24:
			near = refJoin[calibrationN]
		case n%2 == 1:
			near = refJoin[27]
		}
		return near.ns, 2 * (1 + max(0.25, near.err))
	case partition.Sym:
		return 150, 4
	}
	return 300, 4
}

// modelCost is the model's core-seconds for counting every queen
// solution of the n×n board by method on one core of the reference
// machine, with its 95% interval.
func modelCost(n int, method partition.Method) (cs, lo, hi float64) {
	ns, f := perSolution(n, method)
	cs = solutions(n) * ns * 1e-9
	return cs, cs / f, cs * f
}

// modelApplies reports whether the model describes this configuration's
// counts: plain queens, none placed. Placed queens and the torus only
// remove solutions (the plain board's cost bounds theirs from above);
// other pieces have counts of their own.
func (b *boardSpec) modelApplies() bool {
	return b.queens() && len(b.placed) == 0
}

// modelBounds reports whether the plain board's cost bounds this
// configuration's from above: queens, placed or on the torus, and
// superqueens, whose solutions and search are the queens' with the
// knight's moves also barred.
func (b *boardSpec) modelBounds() bool {
	return b.piece == "" || b.piece == Queen || b.piece == Superqueen
}

// unmodeled reports whether counting n with c has no model and may take
// long: knights searched rather than swept (past board.MaxSweepN,
// or with knights placed), whose solutions the queens' do not bound. Kings
// and rooks are counted in closed form, knights on smaller boards by the
// row sweep, both at once.
func (b *boardSpec) unmodeled(n int) bool {
	return b.piece == Knight && (n > board.MaxSweepN || len(b.placed) > 0)
}

// Model returns the cost model's figures for counting the n×n board
// with opts, at once, with no plan and no sample: the core-seconds of
// the reference machine for the whole board and their 95% interval
// (Modeled set), from the published count of solutions (past n = 27 its
// extrapolation) times the method's measured cost per solution. Placed
// queens and the torus only remove solutions, so for them the plain
// board's figure is a bound from above (CoreSeconds and CoreSecondsHigh
// that bound, CoreSecondsLow 0). Other pieces have no model: the figures
// are 0 and Modeled false (Unknown set where such a count may take
// long: knights searched). Tasks and the plan's other figures are 0.
func Model(n int, opts ...EstimateOption) (Cost, error) {
	c, err := newConfig("Model", opts)
	if err != nil {
		return Cost{}, err
	}
	return c.model(n)
}

// model is [Model] for c.
func (c *config) model(n int) (Cost, error) {
	if err := board.CheckSize(n, partition.MaxN); err != nil {
		return Cost{}, invalid(err)
	}
	method := partition.Method(c.method)
	if method == "" || method == partition.Auto {
		method = c.job(n, method, false).AutoMethod()
	}
	e := Cost{CostPlan: CostPlan{N: n, Method: Method(method), Piece: cmp.Or(c.piece, Queen), Torus: c.torus, Shards: c.shards}, CostMemory: CostMemory{Workers: c.workers}}
	if !c.modelBounds() || (method == partition.Join && n > partition.JoinMaxN) {
		e.Unknown = c.unmodeled(n)
		return e, nil // no model; or a count refused, which says why
	}
	cs, lo, hi := modelCost(n, method)
	if !c.modelApplies() {
		lo, cs = 0, hi // placed queens, the torus: a bound from above
	}
	e.CoreSeconds, e.CoreSecondsLow, e.CoreSecondsHigh, e.Modeled = cs, lo, hi, true
	return e, nil
}

// Forecast says what counting a shard of the n×n board will cost and
// whether that is long, before the count starts and at little cost: first
// the cost model ([Model]) at once; where its bound from above reaches
// [LongWall] for a shard ([WithShard]'s m; its index and file are not
// used) on the workers and the reference costs cover the board (plain
// queens to n = 28), an [Estimate] with a 2-second calibration sharpens
// it. Long reports whether a shard's expected wall time on the workers
// ([Cost.Wall]) reaches LongWall. A [WithSample] is ignored.
//
// The Cost holds the figures the decision came from: the model's
// (Modeled; no plan: Tasks is 0) or the estimate's. Where no model
// applies (kings, rooks and knights), Long is false and CoreSeconds 0,
// and Unknown says whether the count may still take long (knights
// searched, past n = 18 or with knights placed).
func Forecast(ctx context.Context, n int, opts ...EstimateOption) (e Cost, long bool, err error) {
	c, err := newConfig("Forecast", opts)
	if err == nil {
		err = nilContext("Forecast", ctx)
	}
	if err != nil {
		return Cost{}, false, err
	}
	if e, err = c.model(n); err != nil || !e.Modeled || e.wallOf(e.CoreSecondsHigh) < LongWall {
		return e, false, err // no model, or short even at its bound
	}
	if n > known.MaxN+1 || !c.modelApplies() {
		return e, e.Wall() >= LongWall, nil
	}
	cc := *c
	cc.sample = ForecastSample
	est, err := cc.estimate(ctx, n)
	if err != nil {
		return Cost{}, false, err
	}
	return est, est.Wall() >= LongWall, nil
}

// Wall is the expected wall time of one shard of e's split on e.Workers
// (the whole board for one shard), from CoreSeconds: 0 when unknown.
func (e Cost) Wall() time.Duration { return e.wallOf(e.CoreSeconds) }

// wallOf is a shard's wall time on e.Workers for the whole board's
// core-seconds cs, saturating at the longest Duration.
func (e Cost) wallOf(cs float64) time.Duration {
	s := cs / float64(max(1, e.Shards)) / float64(max(1, e.Workers))
	if s >= math.MaxInt64/float64(time.Second) {
		return math.MaxInt64
	}
	return time.Duration(s * float64(time.Second))
}
