package nqueens

import (
	"context"
	"fmt"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// This file is Audit: a sample of a count's lines recounted.

// Audit recounts a random sample of the tasks the files hold (journals
// and shard files of one count, with [Merge]'s checks), each with chance
// fraction (0 to 1; 1 recounts every task, 0.01 about one in a hundred),
// and fails naming the task and its file when a recount differs from the
// file's line: the check of redundant computing, at the cost the caller
// picks. seed chooses the sample: the same seed, the same tasks on every
// machine. Draw it fresh when auditing (crypto/rand, as the command does)
// and keep it to repeat the audit: the sample is then unknown to whoever
// wrote the files, so a forged line survives only if the sample misses it,
// with chance 1 - fraction for one line, (1 - fraction)^k for k of them. A
// seed the files' writer could know (a constant) lets a forger edit just
// the tasks it skips. It returns how many tasks it recounted.
// [WithWorkers] and [WithMemory] apply.
func Audit(ctx context.Context, fraction float64, seed uint64, files []File, opts ...AuditOption) (int, error) {
	if err := nilContext("Audit", ctx); err != nil {
		return 0, err
	}
	if !(fraction >= 0 && fraction <= 1) {
		return 0, invalidf("audit fraction %v is not between 0 and 1", fraction)
	}
	c, err := newConfig("Audit", opts)
	if err != nil {
		return 0, err
	}
	ps, pl, job, err := readHeads(ctx, files, false)
	if err != nil {
		return 0, err
	}
	// The sample: each task the files hold, drawn by its index in the
	// whole plan, with its line's counts and file; one shard at a time
	// for the files of one split.
	var drawn []partition.Task
	var want []engine.Result
	var from []string
	limit := uint64(fraction * (1 << 63) * 2)
	draw := func(plan *partition.Plan, l *ledger, first int) {
		for i := range plan.Tasks {
			if l.have[i] && (fraction == 1 || partition.Draw(uint64(first+i), seed) < limit) {
				drawn, want, from = append(drawn, plan.Tasks[i]), append(want, l.got[i]), append(from, l.sources[l.from[i]])
			}
		}
	}
	if m := oneSplit(ps); m > 1 {
		_, err = shardByShard(ctx, ps, pl, m, func(sp *partition.Plan, l *ledger, first int) error {
			draw(sp, l, first)
			return nil
		})
	} else {
		var plan *partition.Plan
		var l *ledger
		if _, plan, l, _, err = readLedger(ctx, ps, pl, job, false); err == nil {
			draw(plan, l, 0)
		}
	}
	if err != nil {
		return 0, err
	}
	if len(drawn) == 0 {
		return 0, nil
	}
	var bad error
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	recount := pl.PlanOf(drawn, 0, 1)
	if err := c.devicePlan(recount); err != nil {
		return 0, err
	}
	devs, _, err := c.openDevices()
	if err != nil {
		return 0, err
	}
	defer devs.Close()
	_, err = engine.Run(runCtx, recount, engine.Options{Workers: devs.workers, Devices: devs.list, Tuning: c.joinTuning, Memory: c.memory, OnResult: func(r engine.Result) {
		k := r.Task
		got := want[k]
		if r.Task = got.Task; r != got && bad == nil {
			bad = fmt.Errorf("audit: task %s in %s has total %d, unique %d, point %d, rot90 %d, nodes %d, but recounts to %d, %d, %d, %d, %d: the line is wrong (forged, or miscounted by the machine that wrote it; audit seed %d)",
				drawn[k].ID, from[k], got.Total, got.Unique, got.PointSym, got.Rot90Sym, got.Nodes, r.Total, r.Unique, r.PointSym, r.Rot90Sym, r.Nodes, seed)
			cancel()
		}
	}})
	switch {
	case bad != nil:
		return 0, bad
	case err != nil && ctx.Err() != nil:
		return 0, fmt.Errorf("audit stopped: %w", context.Cause(ctx))
	case err != nil:
		return 0, invalid(err)
	}
	return len(drawn), nil
}
