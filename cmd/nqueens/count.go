package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

type countFlags struct {
	place      string
	method     string
	workers    int
	json       bool
	verify     bool
	checkpoint string
	shard      string
	shards     int
	out        string
	grace      time.Duration
	memory     string
	progress   progressFlags
	placed     []partition.Square
}

func countCmd() *cobra.Command {
	var f countFlags
	cmd := &cobra.Command{
		Use:   "count N",
		Short: "Count the solutions of the N×N board",
		Long: fmt.Sprintf(`count prints the number of solutions of the N×N board (N = 0..%d) alone on
stdout; --json prints a JSON object with the total, the unique and
symmetric counts (sym and join), nodes, timing and workers (counts as exact
decimal strings).

Methods (the default, auto, picks join for N = %d..%d and sym otherwise):
  join    meet in the middle: lists the west and east half-boards of every
          split of the rows and counts the pairs that share no diagonal;
          the fastest from N = %d on; the symmetric solutions are counted
          apart and give unique by Burnside's lemma (memory: --memory)
  sym     full symmetry of the square: one representative per class of
          solutions, each classified, half the nodes of mirror; the unique,
          point-symmetric and rot90-symmetric counts come from the search
  mirror  left-right mirror only: half the search; the total alone

--place counts the solutions that hold the given queens (mirror method;
halved only when the placement is its own mirror image). Queens that attack
each other along a diagonal give 0, with a note on stderr.

Long runs and clusters:
  --checkpoint FILE  journal finished tasks to FILE (fsynced every 2 s and at
                     exit); run the same command again to resume after a
                     stop, a crash or kill -9 (only tasks in flight are lost)
  --shard I/M        count only shard I (0-based) of M, balanced by estimated
                     cost; without it SLURM_ARRAY_TASK_ID/_COUNT/_MIN or
                     JOB_COMPLETION_INDEX with --shards M select the shard
  --out FILE         write the shard's per-task counts to FILE for
                     'nqueens merge' (required when sharding)
SIGINT, SIGTERM and SIGUSR1 stop handing out tasks, let running ones finish
(abandoning those still running after --grace), save the journal and exit
130, 143 or 138.`, partition.MaxN, partition.JoinFrom, partition.JoinMaxN, partition.JoinFrom),
		Example: "  nqueens count 8\n  nqueens count 16 --json -j 4\n  nqueens count 14 --verify\n  nqueens count 16 --method sym --json\n  nqueens count 19 --memory 2GiB\n  nqueens count 10 --place 0:1,3:2\n  nqueens count 20 --checkpoint n20.journal\n  nqueens count 20 --shard 3/8 --out shard3.result",
		Args:    exactArgs(1, "one board size N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, placed, err := boardArgs(cmd, args[0], f.workers, f.place)
			if err != nil {
				return err
			}
			if placed != nil {
				if cmd.Flags().Changed("method") && f.method != string(partition.Mirror) && f.method != "auto" {
					return fmt.Errorf("--place works with --method mirror only (the default with --place)")
				}
				f.method = string(partition.Mirror)
				noteConflict(cmd.ErrOrStderr(), placed)
			}
			f.placed = placed
			return runCount(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), n, f)
		},
	}
	fs := cmd.Flags()
	fs.StringVarP(&f.method, "method", "m", "auto", "counting method: auto, join, sym or mirror")
	workersFlag(fs, &f.workers)
	fs.BoolVar(&f.json, "json", false, "print one JSON object instead of the total alone")
	fs.BoolVar(&f.verify, "verify", false, "count again with a second, independent method and fail (exit 1) if they disagree")
	placeFlag(fs, &f.place)
	fs.StringVar(&f.checkpoint, "checkpoint", "", "journal finished tasks to this file and resume from it")
	fs.StringVar(&f.shard, "shard", "", "count only shard I of M (I/M, 0-based)")
	fs.IntVar(&f.shards, "shards", 0, "number of shards when JOB_COMPLETION_INDEX (Kubernetes Indexed Job) selects the shard")
	fs.StringVar(&f.out, "out", "", "write this run's per-task counts to a shard result file for 'nqueens merge'")
	memoryFlag(fs, &f.memory)
	fs.DurationVar(&f.grace, "grace", 30*time.Second, "after a stop signal, how long running tasks may finish before they are abandoned")
	f.progress.register(fs)
	return cmd
}

// countReport is the --json output of count and merge.
type countReport struct {
	N          int      `json:"n"`
	Method     string   `json:"method"`
	Workers    int      `json:"workers,omitempty"`
	Total      string   `json:"total"`
	Unique     string   `json:"unique,omitempty"`
	PointSym   string   `json:"point_symmetric,omitempty"`
	Rot90Sym   string   `json:"rot90_symmetric,omitempty"`
	Nodes      string   `json:"nodes"`
	Tasks      int      `json:"tasks"`
	Placed     []string `json:"placed,omitempty"`
	Shard      string   `json:"shard,omitempty"`
	Partial    bool     `json:"partial,omitempty"`
	Resumed    int      `json:"resumed_tasks,omitempty"`
	Seconds    float64  `json:"seconds,omitempty"`
	VerifiedBy string   `json:"verified_by,omitempty"`
	Memory     string   `json:"memory_limit,omitempty"`
	Note       string   `json:"note,omitempty"`
	Files      []string `json:"files,omitempty"`
}

func runCount(ctx context.Context, stdout, stderr io.Writer, n int, f countFlags) error {
	method, err := parseMethod(f.method, n)
	if err != nil {
		return err
	}
	workers := f.workers
	if workers == 0 {
		workers = engine.DefaultWorkers()
	}
	limit, err := memoryLimit(f.memory)
	if err != nil {
		return err
	}
	shard, shards, err := selectShard(f, stderr)
	if err != nil {
		return err
	}
	if shards > 1 && f.out == "" && f.checkpoint == "" {
		return fmt.Errorf("a shard's counts must be kept for 'nqueens merge': add --out FILE (or --checkpoint FILE)")
	}
	if f.out != "" {
		// Fail now, not after hours of counting, if --out cannot be written.
		probe, err := os.Create(f.out + ".tmp")
		if err != nil {
			return &failure{err: fmt.Errorf("--out: %w", err)}
		}
		probe.Close()
		os.Remove(f.out + ".tmp")
	}
	if f.verify && (f.placed != nil || shards > 1) {
		return fmt.Errorf("--verify counts the whole board twice: it does not work with --place or shards")
	}
	start := time.Now()
	plan, err := partition.Make(partition.Job{N: n, Method: method, Placed: f.placed})
	if err != nil {
		return err
	}
	mem, err := joinMemory(plan, workers, limit, 0)
	if err != nil {
		return err
	}
	if plan.Method == partition.Join || (f.verify && partition.Other(method) == partition.Join) {
		// The join's buffers and cache fit the limit; the garbage
		// collector keeps the heap's slack within it too.
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	}
	res, err := runPlan(ctx, stderr, plan, runOptions{grace: f.grace, workers: workers, shard: shard, shards: shards,
		checkpoint: f.checkpoint, out: f.out, progress: f.progress, mem: mem})
	if err != nil {
		return err
	}
	rep := countReportOf(plan, res.counts)
	rep.Workers, rep.Seconds, rep.Resumed = workers, time.Since(start).Seconds(), res.resumed
	if shards > 1 {
		rep.Shard, rep.Partial = fmt.Sprintf("%d/%d", shard, shards), true
		if plan.DerivesUnique() {
			rep.Unique = "" // known only once every shard is merged
		}
	}
	if plan.Method == partition.Join {
		rep.Memory = humanize.IBytes(uint64(limit))
	}
	if f.verify {
		other := partition.Other(method)
		plan2, err := partition.Make(partition.Job{N: n, Method: other})
		if err != nil {
			return err
		}
		mem2, err := joinMemory(plan2, workers, limit, 0)
		if err != nil {
			return err
		}
		res2, err := runPlan(ctx, stderr, plan2, runOptions{grace: f.grace, workers: workers, shards: 1, progress: f.progress, mem: mem2})
		if err != nil {
			return err
		}
		if res2.counts.Total != res.counts.Total {
			return failf("verification failed for n = %d: %s counted %s, %s counted %s", n, method, res.counts.Total, other, res2.counts.Total)
		}
		if plan.Classes() && plan2.Classes() {
			// sym classifies every solution; join counts the symmetric
			// ones apart: their class counts must agree too.
			a, b := res.counts, res2.counts
			if a.Unique != b.Unique || a.PointSym != b.PointSym || a.Rot90Sym != b.Rot90Sym {
				return failf("verification failed for n = %d: %s counted unique %s, point_symmetric %s, rot90_symmetric %s; %s counted %s, %s, %s",
					n, method, a.Unique, a.PointSym, a.Rot90Sym, other, b.Unique, b.PointSym, b.Rot90Sym)
			}
		}
		rep.VerifiedBy = string(other)
		rep.Seconds = time.Since(start).Seconds()
	}
	if f.json {
		return json.NewEncoder(stdout).Encode(rep)
	}
	if shards > 1 {
		// A shard's total is not the answer: say where it went instead.
		fmt.Fprintf(stderr, "nqueens: shard %d/%d of n = %d counted (%d tasks, partial total %s) and saved in %s; merge all shards with 'nqueens merge'\n",
			shard, shards, n, rep.Tasks, rep.Total, firstNonEmpty(f.out, f.checkpoint))
		return nil
	}
	_, err = fmt.Fprintln(stdout, rep.Total)
	return err
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// countReportOf fills the fields of a count report that come from the plan and
// the counts.
func countReportOf(plan *partition.Plan, c engine.Counts) countReport {
	rep := countReport{N: plan.N, Method: string(plan.Method), Total: c.Total.String(), Nodes: c.Nodes.String(), Tasks: c.Tasks}
	for _, q := range plan.Placed {
		rep.Placed = append(rep.Placed, q.String())
	}
	if plan.Classes() {
		rep.Unique, rep.PointSym, rep.Rot90Sym = c.Unique.String(), c.PointSym.String(), c.Rot90Sym.String()
	} else {
		rep.Note = fmt.Sprintf("the %s method counts the total only; --method sym or join also give unique, point_symmetric and rot90_symmetric", plan.Method)
	}
	return rep
}

// finishCounts completes the counts of a whole plan: for join, the unique
// count from the total and the symmetric counts (Burnside's lemma). A
// failure means a wrong count: exit 1.
func finishCounts(plan *partition.Plan, c *engine.Counts) error {
	if !plan.DerivesUnique() {
		return nil
	}
	if err := c.DeriveUnique(plan.N); err != nil {
		return &failure{err: err}
	}
	return nil
}

// selectShard returns the shard to count: --shard, else Slurm's array
// variables, else JOB_COMPLETION_INDEX with --shards; 0 of 1 otherwise.
func selectShard(f countFlags, stderr io.Writer) (int, int, error) {
	if f.shard != "" {
		return partition.ParseShard(f.shard)
	}
	if id := os.Getenv("SLURM_ARRAY_TASK_ID"); id != "" && os.Getenv("SLURM_ARRAY_TASK_COUNT") != "" {
		i, err1 := strconv.Atoi(id)
		m, err2 := strconv.Atoi(os.Getenv("SLURM_ARRAY_TASK_COUNT"))
		lo := 0
		var err3 error
		if s := os.Getenv("SLURM_ARRAY_TASK_MIN"); s != "" {
			lo, err3 = strconv.Atoi(s)
		}
		if err1 != nil || err2 != nil || err3 != nil || m < 1 || i-lo < 0 || i-lo >= m {
			return 0, 0, fmt.Errorf("SLURM_ARRAY_TASK_ID=%s, SLURM_ARRAY_TASK_COUNT=%s, SLURM_ARRAY_TASK_MIN=%s do not name a shard (the array must be contiguous, e.g. --array=0-7)",
				id, os.Getenv("SLURM_ARRAY_TASK_COUNT"), os.Getenv("SLURM_ARRAY_TASK_MIN"))
		}
		fmt.Fprintf(stderr, "nqueens: shard %d/%d from SLURM_ARRAY_TASK_ID\n", i-lo, m)
		return i - lo, m, nil
	}
	if f.shards != 0 {
		idx := os.Getenv("JOB_COMPLETION_INDEX")
		i, err := strconv.Atoi(idx)
		if idx == "" || err != nil || f.shards < 1 || i < 0 || i >= f.shards {
			return 0, 0, fmt.Errorf("--shards %d needs JOB_COMPLETION_INDEX in 0..%d (a Kubernetes Indexed Job sets it), got %q; or use --shard I/M", f.shards, f.shards-1, idx)
		}
		fmt.Fprintf(stderr, "nqueens: shard %d/%d from JOB_COMPLETION_INDEX\n", i, f.shards)
		return i, f.shards, nil
	}
	return 0, 1, nil
}

type runOptions struct {
	grace         time.Duration
	workers       int
	shard, shards int
	checkpoint    string
	out           string
	progress      progressFlags
	mem           engine.JoinMemory
}

type runResult struct {
	counts  engine.Counts
	resumed int
}

// runPlan counts one shard of a plan (all of it for 1 shard), resuming
// from and journaling to a checkpoint if asked, and writes the shard file.
func runPlan(ctx context.Context, stderr io.Writer, plan *partition.Plan, o runOptions) (runResult, error) {
	var mine []int // indices of this shard's tasks
	if o.shards > 1 {
		for i, s := range plan.Shards(o.shards) {
			if s == o.shard {
				mine = append(mine, i)
			}
		}
	} else {
		mine = make([]int, len(plan.Tasks))
		for i := range mine {
			mine[i] = i
		}
	}
	header := resultfile.Header{Tool: version, N: plan.N, Method: string(plan.Method), Placed: partition.PlacedString(plan.Placed),
		Plan: plan.Fingerprint(), Tasks: len(plan.Tasks), Shard: o.shard, Shards: o.shards}
	records := make([]*resultfile.Record, len(plan.Tasks))
	var jour *journal
	if o.checkpoint != "" {
		var err error
		jour, err = openJournal(o.checkpoint, header, plan, stderr)
		if err != nil {
			return runResult{}, err
		}
		defer jour.close()
		for _, r := range jour.done {
			records[r.index] = &r.rec
		}
	}
	var todo []partition.Task
	var todoIndex []int
	for _, i := range mine {
		if records[i] == nil {
			todo = append(todo, plan.Tasks[i])
			todoIndex = append(todoIndex, i)
		}
	}
	resumed := len(mine) - len(todo)
	if resumed > 0 {
		fmt.Fprintf(stderr, "nqueens: resuming from %s: %d of %d tasks already counted\n", o.checkpoint, resumed, len(mine))
	}
	label := fmt.Sprintf("count %d (%s)", plan.N, plan.Method)
	if o.shards > 1 {
		label += fmt.Sprintf(" shard %d/%d", o.shard, o.shards)
	}
	sub := &partition.Plan{N: plan.N, Method: plan.Method, Placed: plan.Placed, Tasks: todo}
	prog := o.progress.start(stderr, label, sub.Cost())
	tick := prog.taskDone(sub)
	var finished atomic.Int64
	var err error
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		_, err = engine.Run(ctx, plan.N, todo, engine.Options{Workers: o.workers, JoinChunk: o.mem.Chunk, QuarterBudget: o.mem.CacheBudget, OnResult: func(r engine.Result) {
			i := todoIndex[r.Task]
			rec := recordOf(plan.Tasks[i].ID, r)
			records[i] = &rec
			if jour != nil {
				jour.add(rec)
			}
			finished.Add(1)
			tick(r)
		}})
	}()
	abandoned := false
	select {
	case <-ran:
	case <-ctx.Done():
		// No new task starts; running ones may finish within the grace
		// period, after which they are abandoned (and counted again on
		// resume).
		select {
		case <-ran:
		case <-time.After(o.grace):
			abandoned = true
		}
	}
	prog.stop()
	if abandoned {
		// The engine goroutine still runs: err is not ours to read.
		err = ctx.Err()
	}
	if jour != nil {
		if cerr := jour.close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			done := resumed + int(finished.Load())
			what := fmt.Sprintf("stopped after %d of %d tasks", done, len(mine))
			if abandoned {
				what += fmt.Sprintf(" (tasks still running after the %s grace period were abandoned)", o.grace)
			}
			if o.checkpoint != "" {
				what += fmt.Sprintf("; %d tasks are saved in %s: run the same command again to resume", done, o.checkpoint)
			}
			return runResult{}, interrupted(ctx, what)
		}
		return runResult{}, &failure{err: err}
	}
	// The answer is the sum of every task's record, resumed or new.
	var all engine.Counts
	var recs []resultfile.Record
	for _, i := range mine {
		all.Add(resultOf(*records[i]))
		recs = append(recs, *records[i])
	}
	if o.shards <= 1 {
		if err := finishCounts(plan, &all); err != nil {
			return runResult{}, err
		}
	}
	if o.out != "" {
		header.Kind = resultfile.Shard
		if err := writeShardFile(o.out, header, recs); err != nil {
			return runResult{}, &failure{err: err}
		}
	}
	return runResult{counts: all, resumed: resumed}, nil
}

// recordOf is a task's result as the journal and shard files store it.
func recordOf(id string, r engine.Result) resultfile.Record {
	return resultfile.Record{ID: id, Total: r.Total, Unique: r.Unique, Point: r.PointSym, Rot90: r.Rot90Sym, Nodes: r.Nodes}
}

// resultOf is recordOf's inverse.
func resultOf(rec resultfile.Record) engine.Result {
	return engine.Result{Total: rec.Total, Unique: rec.Unique, PointSym: rec.Point, Rot90Sym: rec.Rot90, Nodes: rec.Nodes}
}

// writeShardFile writes a complete shard file atomically: a temporary file,
// fsynced, then renamed.
func writeShardFile(path string, h resultfile.Header, recs []resultfile.Record) error {
	b := resultfile.AppendHeader(nil, h)
	for _, r := range recs {
		b = resultfile.AppendRecord(b, r)
	}
	b = resultfile.AppendEnd(b, recs)
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return fmt.Errorf("--out: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("--out: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	return nil
}

// parseMethod resolves a --method value: "auto" is the fastest method for n.
func parseMethod(s string, n int) (partition.Method, error) {
	if s == "auto" {
		return partition.Best(n), nil
	}
	m, err := partition.ParseMethod(s)
	if err != nil {
		return "", fmt.Errorf("unknown method %q (accepted: auto, sym, mirror, join)", s)
	}
	return m, nil
}

// memoryFlag registers --memory, the join method's memory limit.
func memoryFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "memory", "", "memory the join method may use, e.g. 8GiB or 500MB (default: half of physical memory)")
}

// memoryLimit parses --memory; empty means half of physical memory (or
// 4 GiB where that is unknown).
func memoryLimit(s string) (int64, error) {
	if s == "" {
		if total := physicalMemory(); total > 0 {
			return int64(total / 2), nil
		}
		return 4 << 30, nil
	}
	b, err := humanize.ParseBytes(s)
	if err != nil || b == 0 || b > 1<<62 {
		return 0, fmt.Errorf("invalid --memory %q (accepted: a size such as 8GiB, 500MB or 1073741824)", s)
	}
	return int64(b), nil
}

// joinMemory divides the memory limit for a join plan (nothing to do for
// other methods, whose memory is the plan's). held is memory the process
// keeps beside this plan's (other plans of a table).
func joinMemory(plan *partition.Plan, workers int, limit, held int64) (engine.JoinMemory, error) {
	if plan.Method != partition.Join {
		return engine.JoinMemory{}, nil
	}
	workers = min(workers, max(1, len(plan.Tasks)))
	held += int64(len(plan.Tasks)) * planTaskBytes
	if need := engine.JoinMinBytes(plan.N, workers) + held; limit < need {
		return engine.JoinMemory{}, fmt.Errorf("--memory %s is too small for the join method on n = %d with %d workers: it needs at least %s (raise --memory, use fewer workers with -j, or --method sym)",
			humanize.IBytes(uint64(limit)), plan.N, workers, humanize.IBytes(uint64(need)))
	}
	return engine.PlanJoinMemory(plan.N, workers, limit-held)
}

// planTaskBytes is the memory a plan takes per task, with its ID.
const planTaskBytes = 160
