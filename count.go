package nqueens

import (
	"context"
	"fmt"
	"io"
	"iter"
	"math"
	"os"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// Count counts the solutions of the n×n board (n = 0..[MaxN]): every count
// the method gives, exactly. Without options it uses the fastest method
// and every core; [WithCheck] counts it again by another method. When ctx
// is cancelled, tasks still running may finish
// within the grace period ([WithGrace]), a journal keeps what was counted,
// and the error is a [*StoppedError].
func Count(ctx context.Context, n int, opts ...CountOption) (Counts, error) {
	c, err := newConfig("Count", opts)
	if err == nil {
		err = nilContext("Count", ctx)
	}
	if err != nil {
		return Counts{}, err
	}
	if c.shards > 1 && c.out == nil && c.outPath == "" && c.journal == nil && c.jpath == "" {
		return Counts{}, optionError("WithShard", "", "%s counts a part of the board: keep its counts, to merge them with the other shards', with %s or %s",
			msg.Name{Of: "WithShard", Value: fmt.Sprintf("%d/%d", c.shard, c.shards)}, msg.Name{Of: "WithShardFile"}, msg.Name{Of: "WithJournalFile"})
	}
	plan, err := c.plan(ctx, n)
	if err != nil {
		return Counts{}, err
	}
	if c.outPath != "" {
		if counts, ok, err := c.readBack(plan); ok || err != nil {
			return counts, err
		}
	}
	counts, err := run(ctx, plan, c)
	if err == nil && c.outPath != "" && c.jpath != "" {
		if err := dropJournal(c.jpath); err != nil {
			return Counts{}, err
		}
	}
	if err != nil || !c.check {
		return counts, err
	}
	return c.checked(ctx, counts)
}

// readHead returns the first n bytes of the file at path ("" if none can
// be read).
func readHead(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, n)
	k, _ := io.ReadFull(f, b)
	return string(b[:k])
}

// readBack reads the counts of a shard file that [WithShardFile] names
// and a run before finished (ok: not counted again; ReadBack and a note
// say so). Any other file at the path is refused, naming what it holds:
// a journal, another count's shard file, a damaged or unfinished one, a
// file that is no nqueens file. Nothing there (or no regular file, which
// the shard file's creation refuses): ok is false.
func (j *journalling) readBack(plan *partition.Plan) (Counts, bool, error) {
	if st, err := os.Lstat(j.outPath); err != nil || !st.Mode().IsRegular() {
		return Counts{}, false, nil // nothing there; or what Create refuses by its kind
	}
	// Read under the path's lock: a run writing it is named as such.
	lock, err := resultfile.LockPath(j.outPath)
	if err != nil {
		return Counts{}, false, &FileError{"shard file", j.outPath, msg.PathError(err)}
	}
	defer lock.Release()
	counts, ok, damaged, err := counted(plan, j.outPath)
	switch {
	case err != nil:
		return Counts{}, false, err
	case !ok:
		why := "it is empty"
		if damaged != nil {
			why = damaged.Error()
		}
		if head := readHead(j.outPath, 8); head != "" && head != "nqueens " {
			why = "it is no nqueens file"
		}
		return Counts{}, false, &FileError{"shard file", j.outPath, fmt.Errorf("%s %w and is not this shard's finished shard file (%s): a shard file replaces only that; move it, or name another file", msg.Path(j.outPath), resultfile.ErrExists, why)}
	}
	counts.Notes = append(counts.Notes, fmt.Sprintf("%s holds this shard's counts already, complete: read back, not counted again", msg.Path(j.outPath)))
	if j.jpath != "" {
		dropStaleJournal(j.jpath)
	}
	return counts, true, nil
}

// checked counts the board of counts again with the other method
// ([WithCheck]) and returns counts that say so, or [ErrMismatch].
func (c *config) checked(ctx context.Context, counts Counts) (Counts, error) {
	other := c.forCheck()
	other.method = Method(partition.Other(partition.Method(counts.Method)))
	plan, err := other.plan(ctx, counts.N)
	if err != nil {
		return Counts{}, err
	}
	again, err := run(ctx, plan, &other)
	if err != nil {
		return Counts{}, err
	}
	if err := agree(counts, again); err != nil {
		return Counts{}, err
	}
	counts.CheckedBy, counts.Elapsed = again.Method, counts.Elapsed+again.Elapsed
	return counts, nil
}

// forCheck is a config for another count of c's board (a check's): the
// board, its pieces and shard, the workers, memory, device and stopping;
// nothing of where c's counts go (journal, files, progress), which are
// the first count's alone. Fields are taken, not blanked, so that an
// option added later stays out of the second count unless named here.
func (c *config) forCheck() config {
	return config{boardSpec: c.boardSpec, resources: resources{workers: c.workers, memory: c.memory, device: c.device},
		journalling: journalling{shard: c.shard, shards: c.shards, grace: c.grace, now: c.now}, given: c.given}
}

// Table counts every board from n = from to to, in order, yielding each
// row's counts as it is done, or an error, after which it stops. The
// method (default [Auto]) is resolved per row: join from n = 12, sym below.
// Every row's size and memory are checked against the limit before the
// first is counted; each row is planned when it is reached. Progress ([WithProgress]) covers
// the whole table: Done/Planned weighs each row by an estimate of its work
// that is comparable across n. [WithCheck] counts every row again by the
// other method. Journals and shards are for single counts: a table takes
// none.
func Table(ctx context.Context, from, to int, opts ...TableOption) iter.Seq2[Counts, error] {
	return func(yield func(Counts, error) bool) {
		c, err := newConfig("Table", opts)
		if err == nil {
			err = nilContext("Table", ctx)
		}
		switch {
		case err != nil:
		case board.CheckSize(from, MaxN) != nil || board.CheckSize(to, MaxN) != nil || from > to:
			err = invalidf("%w: table %d..%d (accepted: 0 ≤ FROM ≤ TO ≤ %d)", board.ErrSize, from, to, MaxN)
		}
		if err != nil {
			yield(Counts{}, err)
			return
		}
		// Every row is checked (its size and memory) before the first is
		// counted, and planned when it is reached.
		planners := make([]*partition.Planner, 0, to-from+1)
		var total Progress
		for n := from; n <= to; n++ {
			pl, err := c.planner(ctx, n)
			if err == nil {
				sz := pl.Size()
				err = c.fits(n, sz.Method, sz.Tasks, 1)
			}
			if err != nil {
				yield(Counts{}, err)
				return
			}
			planners = append(planners, pl)
			total.Planned += rowWork(n)
			total.Tasks += pl.Size().Tasks
		}
		row := *c
		for i, pl := range planners {
			n := from + i
			p, err := c.planWith(ctx, pl, n)
			if err != nil {
				yield(Counts{}, err)
				return
			}
			planners[i] = nil
			base := total
			if c.progress != nil {
				row.progress = func(pr Progress) {
					q := base
					q.N, q.Method, q.Stopping = pr.N, pr.Method, pr.Stopping
					q.TasksDone += pr.TasksDone
					if pr.Planned > 0 {
						q.Done += rowWork(p.N) * pr.Done / pr.Planned
					}
					c.progress(q)
				}
			}
			counts, err := run(ctx, p, &row)
			if err == nil && c.check {
				counts, err = c.checked(ctx, counts)
			}
			if !yield(counts, err) || err != nil {
				return
			}
			total.Done += rowWork(p.N)
			total.TasksDone += len(p.Tasks)
		}
	}
}

// rowWork estimates the work of counting the n×n board, on a scale
// comparable across n: its number of solutions (published up to n = 27,
// growing about tenfold per n beyond), at least 1. Every method's time
// grows with it at a rate close enough for a table's progress and ETA.
func rowWork(n int) float64 {
	if n <= known.MaxN {
		return max(1, float64(known.Total[n]))
	}
	return float64(known.Total[known.MaxN]) * math.Pow(10, float64(n-known.MaxN))
}
