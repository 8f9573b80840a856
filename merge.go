package nqueens

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// This file is Merge: a count's files checked and summed.

// Merge reads the shard files and journals of one count, in any order, and
// returns its counts. It checks that every file belongs to the same plan
// (n, method, placed queens and the plan's fingerprint), that every line's
// checksum is right, that no task is given twice with different counts
// (identical duplicates are accepted and noted) and that every task of
// the plan is present; the error of a failed check names the missing
// shards or the offending file.
//
// The files of one split into shards (every file a shard file or a
// shard's journal) are read one shard at a time, holding that shard's
// tasks alone; files that mix a whole count's journal with shards are
// read against the whole plan, held at once.
func Merge(ctx context.Context, files ...File) (Counts, error) {
	if err := nilContext("Merge", ctx); err != nil {
		return Counts{}, err
	}
	ps, pl, job, err := readHeads(ctx, files, false)
	if err != nil {
		return Counts{}, err
	}
	var sum engine.Counts
	var missing missingTasks
	var notes []string
	dups := 0
	if m := oneSplit(ps); m > 1 {
		if err := shardsPresent(ps, pl.Size().Tasks); err != nil {
			return Counts{}, err
		}
		notes, err = shardByShard(ctx, ps, pl, m, func(sp *partition.Plan, l *ledger, _ int) error {
			missing.add(sp, l.missing(nil))
			sum.Merge(l.sum(nil))
			dups += l.dups
			return nil
		})
	} else {
		var plan *partition.Plan
		var l *ledger
		ps, plan, l, notes, err = readLedger(ctx, ps, pl, job, true)
		if err == nil {
			missing.addSplit(plan, l.missing(nil), ps[0].head.Shards)
			sum, dups = l.sum(nil), l.dups
		}
	}
	if err != nil {
		return Counts{}, err
	}
	if missing.count > 0 {
		return Counts{}, errors.New(missing.String(pl.Size().Tasks, ps[0].head.Shards))
	}
	c, err := countsOf(pl.PlanOf(nil, 0, 1), sum, true)
	if err != nil {
		return Counts{}, err
	}
	if dups > 0 {
		notes = append(notes, duplicatesNote(dups))
	}
	c.Notes = notes
	return c, nil
}

// missingTasks gathers the tasks missing from a count's files: how many,
// the first few, and their shards.
type missingTasks struct {
	count  int
	ids    []string
	shards []int
}

// add notes the tasks of shard plan sp at the given indices as missing.
func (mt *missingTasks) add(sp *partition.Plan, missing []int) {
	if len(missing) == 0 {
		return
	}
	mt.count += len(missing)
	for _, i := range missing[:min(3-len(mt.ids), len(missing))] {
		mt.ids = append(mt.ids, sp.Tasks[i].ID)
	}
	mt.shards = append(mt.shards, sp.Shard)
}

// addSplit notes the tasks of the whole plan at the given indices as
// missing, with their shards of m.
func (mt *missingTasks) addSplit(plan *partition.Plan, missing []int, m int) {
	if len(missing) == 0 {
		return
	}
	var shardOf []int
	if m > 1 {
		shardOf, _ = plan.Split(m)
	}
	seen := map[int]bool{}
	for k, i := range missing {
		if k < 3 {
			mt.ids = append(mt.ids, plan.Tasks[i].ID)
		}
		if shardOf != nil && !seen[shardOf[i]] {
			seen[shardOf[i]] = true
			mt.shards = append(mt.shards, shardOf[i])
		}
	}
	mt.count += len(missing)
	slices.Sort(mt.shards)
}

// String says which tasks, and which shards of m, are missing of a plan
// of the given tasks.
func (mt *missingTasks) String(tasks, m int) string {
	say := fmt.Sprintf("%d of %d tasks are missing (e.g. %s)", mt.count, tasks, strings.Join(mt.ids, ", "))
	if m > 1 {
		return say + fmt.Sprintf("; missing or incomplete shards of %d: %s", m, msg.Ranges(mt.shards))
	}
	return say + "; resume the count to finish them"
}
