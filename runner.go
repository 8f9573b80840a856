package nqueens

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/internal/version"
	"github.com/nqueens/nqueens/partition"
)

// This file is the runner: one run from plan to counts, for every entry
// point (Count, Table, the command's count and bench). The plan's tasks of
// this shard, minus those a journal holds, go to the engine; each result is
// kept in the ledger by task ID and appended to the journal; the counts are
// the ledger's sum, with unique derived for a whole join plan; a shard's
// records go to its shard file. It knows nothing about a method beyond
// what countsOf derives.

// StoppedError is returned when a run's context is cancelled before every
// task was counted. Its Cause is the context's cause.
type StoppedError struct {
	// Done tasks of Tasks were counted (resumed ones included).
	Done, Tasks int
	// Journal names the journal that holds them, "" without one.
	Journal string
	// Abandoned is set when tasks still running were abandoned: after
	// the grace period, or at once when StopNow says so (a second
	// interrupt, [WithStopNow]).
	Abandoned bool
	StopNow   bool
	Grace     time.Duration
	Cause     error
}

// Error names the cause first ("context deadline exceeded: stopped after
// 3 of 276 tasks"), then what was done and where it is saved.
func (e *StoppedError) Error() string {
	msg := fmt.Sprintf("stopped after %d of %d tasks", e.Done, e.Tasks)
	if e.Cause != nil {
		msg = e.Cause.Error() + ": " + msg
	}
	switch {
	case e.Abandoned && e.StopNow:
		msg += " (the tasks still running were abandoned at the second interrupt)"
	case e.Abandoned:
		msg += fmt.Sprintf(" (tasks still running after the %s grace period were abandoned)", e.Grace)
	}
	if e.Journal != "" {
		msg += fmt.Sprintf("; %d tasks are saved in %s: run the same command again to resume", e.Done, e.Journal)
	}
	return msg
}

func (e *StoppedError) Unwrap() error { return e.Cause }

// header describes the plan's shard in journals and shard files.
func header(plan *partition.Plan) resultfile.Header {
	return resultfile.Header{Tool: version.Version, N: plan.N, Method: string(plan.Method), Placed: partition.PlacedString(plan.Placed),
		Plan: plan.Fingerprint(), Tasks: cmp.Or(plan.AllTasks, len(plan.Tasks)), Shard: plan.Shard, Shards: max(1, plan.Shards),
		Piece: string(plan.Piece), Torus: plan.Torus}
}

// run counts the plan's shard under c, with the files c names by path
// opened (and locked) for the run.
func run(ctx context.Context, plan *partition.Plan, c *config) (counts Counts, err error) {
	if c.jpath != "" || c.outPath != "" {
		cc := *c
		var done func(ok bool) error
		if done, err = cc.openFiles(header(plan)); err != nil {
			return Counts{}, err
		}
		defer func() {
			if cerr := done(err == nil); cerr != nil && err == nil {
				counts, err = Counts{}, cerr
			}
		}()
		c = &cc
	}
	return runOpen(ctx, plan, c)
}

// runOpen counts the plan's shard under c.
func runOpen(ctx context.Context, plan *partition.Plan, c *config) (Counts, error) {
	start := time.Now()
	if plan.Shard != c.shard || max(1, plan.Shards) != c.shards {
		return Counts{}, fmt.Errorf("the plan holds shard %d/%d, not %d/%d", plan.Shard, plan.Shards, c.shard, c.shards)
	}
	if err := c.devicePlan(plan); err != nil {
		return Counts{}, err
	}
	devs, workers, devNames, closeDevs, err := c.openDevices()
	if err != nil {
		return Counts{}, err
	}
	// The devices are released when the engine is done with them: at the
	// end, or once an abandoned engine returns (see below).
	var engineDone <-chan struct{}
	defer func() {
		if engineDone == nil {
			closeDevs()
			return
		}
		go func() { <-engineDone; closeDevs() }()
	}()
	l := newLedger(plan)
	h := header(plan)
	var jw *journalWriter
	var notes []string
	if c.journal != nil {
		if jw, notes, err = openJournal(c.journal, c.jname, h, l); err != nil {
			return Counts{}, err
		}
		defer jw.close()
	}
	// The plan holds this shard's tasks alone ([partition.Planner.Plan]).
	prog := Progress{N: plan.N, Method: Method(plan.Method), Tasks: len(plan.Tasks)}
	for i := range plan.Tasks {
		prog.Planned += float64(plan.Tasks[i].Cost)
		if l.have[i] {
			prog.Done += float64(plan.Tasks[i].Cost)
			prog.TasksDone++
		}
	}
	resumed := prog.TasksDone
	if c.progress != nil {
		c.progress(prog)
	}

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	if jw != nil {
		jw.onError = func(err error) { cancel(err) }
		jw.start()
	}
	// The engine calls OnResult under its own lock, one result at a time;
	// finished is read here only once the engine is done, or under
	// progress's snapshot after a stop.
	var pmu sync.Mutex // progress is never called concurrently with itself
	finished := make(chan int, 1)
	finished <- resumed
	ran := make(chan struct{})
	var over atomic.Bool // set when run returns without waiting for the engine
	var engineErr error  // the engine's, read once ran is closed
	engineDone = ran
	go func() {
		defer close(ran)
		_, engineErr = engine.Run(runCtx, plan, engine.Options{Workers: workers, Devices: devs, Skip: slices.Clone(l.have), Memory: c.memory, Keep: c.keep, OnResult: func(r engine.Result) {
			if over.Load() {
				return
			}
			rec := recordOf(plan.Tasks[r.Task].ID, r)
			l.put(r.Task, r, "this run")
			if jw != nil {
				if err := jw.add(rec); err != nil {
					cancel(fmt.Errorf("journal %s: %w", c.jname, err))
				}
			}
			done := <-finished + 1
			finished <- done
			if c.progress != nil {
				pmu.Lock()
				prog.Done += float64(plan.Tasks[r.Task].Cost)
				prog.TasksDone = done
				c.progress(prog)
				pmu.Unlock()
			}
		}})
	}()
	abandoned, stopNow := false, false
	select {
	case <-ran:
	case <-runCtx.Done():
		// No new task starts; running ones may finish within the grace
		// period, after which they are abandoned (and counted again on
		// resume). A journal that cannot be written stops at once.
		grace := c.grace
		if ctx.Err() == nil {
			grace = 0
		}
		select {
		case <-ran:
		default:
			if c.progress != nil && grace > 0 {
				pmu.Lock()
				stopping := prog
				stopping.Stopping = grace
				c.progress(stopping)
				pmu.Unlock()
			}
			select {
			case <-ran:
			case <-time.After(grace):
				abandoned = true
			case <-c.now:
				abandoned, stopNow = true, true
			}
		}
	}
	runErr := runCtx.Err()
	if !abandoned {
		runErr = engineErr
	} else {
		// The engine goroutine still runs: its error is not ours to
		// read, and what it finishes from now on is dropped.
		over.Store(true)
	}
	if jw != nil {
		if cerr := jw.close(); cerr != nil && runErr == nil {
			runErr = cerr
		}
	}
	if runErr != nil {
		var me *engine.MemoryError
		switch {
		case errors.As(runErr, &me):
			return Counts{}, memoryError(me)
		case ctx.Err() != nil:
			done := <-finished
			finished <- done
			return Counts{}, &StoppedError{Done: done, Tasks: len(plan.Tasks), Journal: c.jname, Abandoned: abandoned, StopNow: stopNow, Grace: c.grace, Cause: context.Cause(ctx)}
		case runCtx.Err() != nil:
			return Counts{}, context.Cause(runCtx) // the journal failed
		}
		return Counts{}, runErr
	}
	counts, err := countsOf(plan, l.sum(nil), c.shards <= 1)
	if err != nil {
		return Counts{}, err
	}
	counts.Resumed, counts.Shard, counts.Shards, counts.Notes = resumed, c.shard, c.shards, notes
	counts.Workers, counts.Devices = max(0, workers), devNames
	counts.Elapsed = time.Since(start)
	if plan.Method == partition.Join {
		counts.MemoryLimit = c.memoryLimit()
	}
	if c.out != nil {
		h.Kind = resultfile.Shard
		recs := l.records(nil)
		b := resultfile.AppendHeader(nil, h)
		for _, r := range recs {
			b = resultfile.AppendRecord(b, h, r)
		}
		if _, err := c.out.Write(resultfile.AppendEnd(b, h, recs)); err != nil {
			return Counts{}, fmt.Errorf("shard file: %w", err)
		}
	}
	return counts, nil
}
