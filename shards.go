package nqueens

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// CountShards counts shards first..last (0-based, inclusive) of m of the
// n×n board one after another, as [Count] with [WithShardFile] and
// [WithJournalFile] counts each, planning them all in one walk of the
// plan: the way a cluster job counts a range of a campaign's shards in
// one process. Each shard's files go in dir, at [ShardPaths]: its shard
// file, and while it is counted its journal, which is removed once the
// shard file is written. A shard whose shard file is there already is not
// counted again (its counts are read back from the file: ReadBack, and
// Resumed equal to Tasks); one whose journal is there resumes from it. It yields each
// shard's counts, or an error, after which it stops; when ctx is
// cancelled, the shard being counted ends as [Count]'s does (a
// [*StoppedError], its journal kept) and no further shard is started.
// It takes the options [Count] takes but for [WithCheck] and those that
// name the shard or its files.
func CountShards(ctx context.Context, n int, dir string, first, last, m int, opts ...ShardsOption) iter.Seq2[Counts, error] {
	return func(yield func(Counts, error) bool) {
		if err := nilContext("CountShards", ctx); err != nil {
			yield(Counts{}, err)
			return
		}
		plans, c, err := planShards(ctx, n, dir, first, last, m, opts)
		if err != nil {
			yield(Counts{}, err)
			return
		}
		c.shared = &sharedDevices{}
		defer c.shared.end()
		for _, plan := range plans {
			counts, err := c.countShard(ctx, plan, dir)
			if !yield(counts, err) || err != nil {
				return
			}
		}
	}
}

// planShards checks CountShards' arguments and plans its shards, within
// the memory limit.
func planShards(ctx context.Context, n int, dir string, first, last, m int, opts []ShardsOption) ([]*partition.Plan, *config, error) {
	c, err := newConfig("CountShards", opts)
	switch {
	case err != nil:
		return nil, nil, err
	case dir == "":
		return nil, nil, invalidf("CountShards: the directory is \"\" (accepted: a path)")
	case isNotDir(dir):
		return nil, nil, invalidf("CountShards: %s is not a directory (accepted: a directory, made where missing)", msg.Path(dir))
	case !partition.IsShards(first, last, m):
		return nil, nil, invalidf("%w: shards %d-%d of %d (accepted: %s)", partition.ErrShard, first, last, m, partition.RangeAccepted)
	}
	pl, err := c.planner(ctx, n)
	if err != nil {
		return nil, nil, err
	}
	method := pl.Size().Method
	plans, err := pl.Plans(first, last, m, c.maxTasks(n, method))
	var te *partition.TasksError
	switch {
	case errors.As(err, &te):
		if err := c.fits(n, method, te.Tasks, m); err != nil {
			return nil, nil, err
		}
		return nil, nil, invalid(te)
	case err != nil && ctx.Err() != nil:
		return nil, nil, fmt.Errorf("planning n = %d stopped: %w", n, context.Cause(ctx))
	case err != nil:
		return nil, nil, invalid(err)
	}
	c.keep = new(engine.KeptBuffers)
	return plans, c, nil
}

// countShard counts one of CountShards' shards into dir, or reads back
// its counts from the shard file a run before wrote.
func (c *config) countShard(ctx context.Context, plan *partition.Plan, dir string) (Counts, error) {
	result, journal, err := ShardPaths(dir, plan.Shard, plan.Shards)
	if err != nil {
		return Counts{}, err
	}
	counts, ok, damaged, err := counted(plan, result)
	if err != nil {
		return Counts{}, err
	}
	if ok {
		dropStaleJournal(journal)
		return counts, nil
	}
	if ctx.Err() != nil {
		return Counts{}, &StoppedError{Tasks: len(plan.Tasks), Cause: context.Cause(ctx)}
	}
	if err := os.MkdirAll(filepath.Dir(result), 0o777); err != nil {
		return Counts{}, &FileError{"shard file", result, msg.PathError(err)}
	}
	var aside string
	if damaged != nil {
		// Kept, not replaced: nothing is lost.
		if aside, err = moveAside(result); err != nil {
			return Counts{}, &FileError{"shard file", result, msg.PathError(err)}
		}
	}
	one := *c
	one.shard, one.shards, one.outPath, one.jpath = plan.Shard, plan.Shards, result, journal
	counts, err = run(ctx, plan, &one)
	if err != nil {
		return Counts{}, err
	}
	if damaged != nil {
		counts.Notes = append(counts.Notes, fmt.Sprintf("%s could not be read back (%v): it was moved to %s and the shard counted again", msg.Path(result), damaged, msg.Path(aside)))
	}
	return counts, dropJournal(journal)
}

// dropJournal removes a shard's journal once its shard file holds every
// task ([CountShards], and [Count] with both files named).
func dropJournal(journal string) error {
	if err := os.Remove(journal); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return &FileError{"journal", journal, msg.PathError(err)}
	}
	return nil
}

// dropStaleJournal removes a journal left beside a finished shard file by
// a run stopped after it wrote that file, unless another run holds it.
func dropStaleJournal(journal string) {
	if _, err := os.Stat(journal); err != nil {
		return
	}
	if lock, err := resultfile.LockPath(journal); err == nil {
		os.Remove(journal)
		lock.Release()
	}
}

// isNotDir reports whether something other than a directory (or a link
// to one) is at path.
func isNotDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// moveAside renames the file at path to path.damaged (.damaged.2, … if
// taken), which no merge reads, and returns the new name.
func moveAside(path string) (string, error) {
	for i := 1; ; i++ {
		to := path + ".damaged"
		if i > 1 {
			to += fmt.Sprintf(".%d", i)
		}
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			return to, os.Rename(path, to)
		}
	}
}

// counted reads the shard's counts back from its shard file at path, ok
// if the file is there and complete. A file of another count is an
// error; one that is damaged or not complete is to be counted again, and
// replaced: damaged says why.
func counted(plan *partition.Plan, path string) (counts Counts, ok bool, damaged, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Counts{}, false, nil, nil
	} else if err != nil {
		return Counts{}, false, nil, &FileError{"shard file", path, msg.PathError(err)}
	}
	defer f.Close()
	own := header(plan)
	l := newLedger(plan)
	name := msg.Path(path)
	rf, err := resultfile.Scan(f, func(h resultfile.Header) error {
		return resultfile.OwnShard(path, h, own)
	}, func(rec resultfile.Record, _ int) error {
		_, err := l.add(rec, name)
		return err
	})
	switch {
	case errors.Is(err, resultfile.ErrOtherCount):
		return Counts{}, false, nil, &FileError{"shard file", path, err}
	case err != nil:
		return Counts{}, false, err, nil
	case rf.End == nil:
		return Counts{}, false, errors.New("no end line"), nil
	}
	if miss := l.missing(nil); len(miss) > 0 {
		return Counts{}, false, fmt.Errorf("%d of its %d tasks missing", len(miss), len(plan.Tasks)), nil
	}
	counts, err = countsOf(plan, l.sum(nil), plan.Shards <= 1)
	if err != nil {
		return Counts{}, false, nil, err
	}
	counts.Resumed, counts.Shard, counts.Shards, counts.ReadBack = len(plan.Tasks), plan.Shard, plan.Shards, true
	return counts, true, nil, nil
}

// ShardPaths are where [CountShards] keeps shard i of m in dir: its shard
// file DIR/DDD/shardIIIII.result and its journal beside it (.journal),
// DDD being i/1000, so that no directory holds more than 1,000 shards'
// files, and both numbers zero-padded to the widest of the campaign so
// that names sort in shard order ("shard00042" for shard 42 of 100,000).
// A shard that is none of m (i outside 0..m-1, or m < 1) is an error
// wrapping [ErrInvalid].
func ShardPaths(dir string, i, m int) (result, journal string, err error) {
	if !partition.IsShards(i, i, m) {
		return "", "", invalidf("%w: %d/%d (accepted: %s)", partition.ErrShard, i, m, partition.ShardAccepted)
	}
	width := len(fmt.Sprint(max(0, m-1)))
	sub := fmt.Sprintf("%0*d", max(3, len(fmt.Sprint(max(0, m-1)/1000))), i/1000)
	base := filepath.Join(dir, sub, fmt.Sprintf("shard%0*d", width, i))
	return base + ".result", base + ".journal", nil
}
