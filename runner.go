package nqueens

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
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
	// Journal names the journal that holds them (its path whole; the
	// message shortens a long one), "" without one.
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
	text := fmt.Sprintf("stopped after %d of %d tasks", e.Done, e.Tasks)
	if e.Cause != nil {
		text = e.Cause.Error() + ": " + text
	}
	switch {
	case e.Abandoned && e.StopNow:
		text += " (the tasks still running were abandoned at the second interrupt)"
	case e.Abandoned && e.Grace == 0:
		text += " (the tasks still running were abandoned)"
	case e.Abandoned:
		text += fmt.Sprintf(" (tasks still running after the %s grace period were abandoned)", e.Grace)
	}
	if e.Journal != "" {
		text += fmt.Sprintf("; %d tasks are saved in %s: %s", e.Done, msg.Path(e.Journal), resumeHint)
	}
	return text
}

func (e *StoppedError) Unwrap() error { return e.Cause }

// resumeHint ends a [StoppedError]'s message where a journal holds the
// work: what resumes it (the command says it in its own words).
const resumeHint = "count again with the same journal to resume"

// header describes the plan's shard in journals and shard files.
func header(plan *partition.Plan) resultfile.Header {
	return resultfile.Header{Tool: version.Version, N: plan.N, Method: string(plan.Method), Placed: board.PlacedString(plan.Placed),
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

// runOpen counts the plan's shard under c. (One function: the devices,
// the journal, the engine's goroutine and the grace period hold one run's
// state, released in one place; wait and writeShard are its named parts.)
func runOpen(ctx context.Context, plan *partition.Plan, c *config) (Counts, error) {
	start := time.Now()
	if plan.Shard != c.shard || max(1, plan.Shards) != c.shards {
		return Counts{}, fmt.Errorf("the plan holds shard %d/%d, not %d/%d", plan.Shard, plan.Shards, c.shard, c.shards)
	}
	if err := c.devicePlan(plan); err != nil {
		return Counts{}, err
	}
	devs, base, err := c.openDevices()
	if err != nil {
		return Counts{}, err
	}
	// The devices are released when the engine is done with them: at the
	// end, or once an abandoned engine returns (see below).
	var engineDone <-chan struct{}
	defer func() {
		if engineDone == nil {
			devs.Close()
			return
		}
		go func() { <-engineDone; devs.Close() }()
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
	st := newRunState(plan, l, c.progress)
	if st.err != nil {
		return Counts{}, st.err
	}
	resumed := st.done()

	runCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	st.mu.Lock()
	st.stop = cancel
	st.mu.Unlock()
	if jw != nil {
		jw.onError = func(err error) { cancel(err) }
		jw.start()
	}
	var prof *engine.JoinProfile // where a device join's time went
	if len(devs.list) > 0 && plan.Method == partition.Join {
		prof = new(engine.JoinProfile)
	}
	ran := make(chan struct{})
	var over atomic.Bool // set when run returns without waiting for the engine
	var engineErr error  // the engine's, read once ran is closed
	engineDone = ran
	go func() {
		defer close(ran)
		// The engine calls OnResult under its own lock, one result at a
		// time.
		_, engineErr = engine.Run(runCtx, plan, engine.Options{Workers: devs.workers, Devices: devs.list, Tuning: c.joinTuning, Profile: prof, Skip: slices.Clone(l.have), Memory: c.memory, Keep: c.keep, OnResult: func(r engine.Result) {
			if over.Load() {
				return
			}
			l.put(r.Task, r, "this run")
			if jw != nil {
				if err := jw.add(recordOf(plan.Tasks[r.Task].ID, r)); err != nil {
					cancel(fmt.Errorf("journal %s: %w", msg.Path(c.jname), err))
				}
			}
			st.finished(float64(plan.Tasks[r.Task].Cost))
		}})
	}()
	abandoned, stopNow := c.wait(ctx, runCtx, ran, st, plan)
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
			return Counts{}, invalid(runErr)
		case ctx.Err() != nil:
			return Counts{}, &StoppedError{Done: st.done(), Tasks: len(plan.Tasks), Journal: c.jname, Abandoned: abandoned, StopNow: stopNow, Grace: c.graceFor(plan), Cause: context.Cause(ctx)}
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
	counts.Workers, counts.Devices, counts.DeviceJoin = max(0, devs.workers), devs.names, prof
	counts.Elapsed, counts.Startup = time.Since(start), devs.startup()-base
	if plan.Method == partition.Join {
		counts.MemoryLimit = c.memoryLimit()
	}
	if c.out != nil {
		if err := writeShard(c.out, h, l); err != nil {
			return Counts{}, err
		}
	}
	return counts, nil
}

// runState is a run's progress as its tasks finish: the engine's
// goroutine adds each, and runOpen reads it after a stop; mu guards it
// and keeps the progress calls from overlapping.
type runState struct {
	mu       sync.Mutex
	prog     Progress
	progress func(Progress) // nil: none asked
	// A progress callback that panicked is not called again: its panic
	// is err, and stop (where set) ends the run with it.
	err  error
	stop func(error)
}

// report calls the progress callback with p, recovering a panic in it
// (it runs on an engine goroutine, where a panic would end the process).
func (st *runState) report(p Progress) {
	if st.progress == nil || st.err != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			st.err = fmt.Errorf("the WithProgress callback panicked: %v", r)
			if st.stop != nil {
				st.stop(st.err)
			}
		}
	}()
	st.progress(p)
}

// newRunState starts a run's progress from the tasks the ledger already
// holds (a journal's), and reports it once.
func newRunState(plan *partition.Plan, l *ledger, progress func(Progress)) *runState {
	// The plan holds this shard's tasks alone ([partition.Planner.Plan]).
	st := &runState{prog: Progress{N: plan.N, Method: Method(plan.Method), Tasks: len(plan.Tasks)}, progress: progress}
	for i := range plan.Tasks {
		st.prog.Planned += float64(plan.Tasks[i].Cost)
		if l.have[i] {
			st.prog.Done += float64(plan.Tasks[i].Cost)
			st.prog.TasksDone++
		}
	}
	st.report(st.prog)
	return st
}

// finished counts one more task done, of the planner's cost cost.
func (st *runState) finished(cost float64) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.prog.Done += cost
	st.prog.TasksDone++
	st.report(st.prog)
}

// stopping reports once that the running tasks have grace to finish.
func (st *runState) stopping(grace time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	p := st.prog
	p.Stopping = grace
	st.report(p)
}

// done is how many tasks are done, resumed ones included.
func (st *runState) done() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.prog.TasksDone
}

// wait waits for the engine to return (ran closed). Once runCtx is done,
// no new task starts and the running ones may finish within the grace
// period (none when the run stopped itself: a journal that cannot be
// written stops at once), after which, or when c.now is closed, they are
// abandoned (and counted again on resume): abandoned and stopNow say so.
func (c *config) wait(ctx, runCtx context.Context, ran <-chan struct{}, st *runState, plan *partition.Plan) (abandoned, stopNow bool) {
	select {
	case <-ran:
		return false, false
	case <-runCtx.Done():
	}
	grace := c.graceFor(plan)
	if ctx.Err() == nil {
		grace = 0
	}
	select {
	case <-ran:
		return false, false
	default:
	}
	if grace > 0 {
		st.stopping(grace)
	}
	select {
	case <-ran:
		return false, false
	case <-time.After(grace):
		return true, false
	case <-c.now:
		return true, true
	}
}

// graceFor is the grace period a stop gives plan's running tasks: c's,
// or none where the cost model puts a task, on average, past a thousand
// times it even at the model's low end (n = 40 by sym: years a task), so
// that waiting could save nothing.
func (c *config) graceFor(plan *partition.Plan) time.Duration {
	if c.grace <= 0 || !c.modelApplies() {
		return c.grace
	}
	_, lo, _ := modelCost(plan.N, plan.Method)
	if lo/float64(cmp.Or(plan.AllTasks, len(plan.Tasks), 1)) > 1000*c.grace.Seconds() {
		return 0
	}
	return c.grace
}

// writeShard writes the ledger's records to out as the shard file of h.
func writeShard(out io.Writer, h resultfile.Header, l *ledger) error {
	h.Kind = resultfile.Shard
	recs := l.records(nil)
	b := resultfile.AppendHeader(nil, h)
	for _, r := range recs {
		b = resultfile.AppendRecord(b, h, r)
	}
	if _, err := out.Write(resultfile.AppendEnd(b, h, recs)); err != nil {
		return fmt.Errorf("shard file: %w", err)
	}
	return nil
}
