package nqueens

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// File is a shard file or journal of a count, read by [Merge], [Status]
// and [Audit]: its content R, or with R nil the file at the path Name,
// which they open (regular files only: a FIFO would block, a device never
// end) and read with its modification time. ModTime, if known, is when it
// was last written (a journal's progress).
type File struct {
	Name    string
	R       io.Reader
	ModTime time.Time
}

// read reads f, opening it by its name when it has no reader; its errors
// name the file.
func (f File) read() (*resultfile.File, File, error) {
	if f.R != nil {
		rf, err := resultfile.Read(f.R)
		if err != nil {
			err = fmt.Errorf("%s: %w", msg.Path(f.Name), err)
		}
		return rf, f, err
	}
	st, err := os.Stat(f.Name)
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s is not a regular file (shard files and journals are)", msg.Path(f.Name))
	}
	var h *os.File
	if err == nil {
		h, err = os.Open(f.Name)
	}
	if err != nil {
		return nil, f, msg.PathError(err)
	}
	defer h.Close()
	f.Name, f.ModTime = msg.Path(f.Name), st.ModTime()
	rf, err := resultfile.Read(h)
	if err != nil {
		err = fmt.Errorf("%s: %w", f.Name, err)
	}
	return rf, f, err
}

// piece is a file read and checked.
type piece struct {
	name string
	file *resultfile.File
	mod  time.Time
}

// readPieces reads the files, checks that they are pieces of one count and
// rebuilds its plan (the fingerprint proves the files were made by the same
// planning rules). What the headers and records can tell is checked before
// the plan is made (its cost is that of the count's planning: seconds and
// gigabytes at n = 25): the task count the planner knows beforehand and,
// with complete (merge), that the files hold that many tasks.
func readPieces(ctx context.Context, files []File, complete bool) ([]piece, *partition.Plan, []string, error) {
	if len(files) == 0 {
		return nil, nil, nil, invalidf("no files to read")
	}
	var ps []piece
	var notes []string
	for _, f := range files {
		rf, f, err := f.read()
		if err != nil { // names the file
			return nil, nil, nil, err
		}
		if rf.Torn {
			notes = append(notes, fmt.Sprintf("%s: the journal's last record was incomplete and is ignored", f.Name))
		}
		ps = append(ps, piece{f.Name, rf, f.ModTime})
	}
	first := ps[0].file.Header
	split := -1 // the first file of a shard, whose shard count every shard's file shares
	for k, p := range ps {
		if h := p.file.Header; h.Shards > 1 {
			if split < 0 {
				split = k
			} else if s := ps[split].file.Header; h.Shards != s.Shards {
				return nil, nil, nil, fmt.Errorf("%s is shard %d of %d, but %s is shard %d of %d: shards of different splits are not pieces of one count (a journal of the whole count mixes with either)",
					p.name, h.Shard, h.Shards, ps[split].name, s.Shard, s.Shards)
			}
		}
	}
	for _, p := range ps[1:] {
		h := p.file.Header
		if h.N != first.N || h.Method != first.Method || h.Placed != first.Placed || h.Board() != first.Board() || h.Plan != first.Plan {
			return nil, nil, nil, fmt.Errorf("%s is for n=%d method=%s placed=%s plan=%s shards=%d, but %s is for n=%d method=%s placed=%s plan=%s shards=%d: they are not pieces of one count",
				p.name, h.N, h.Method, h.Placed, h.Plan, h.Shards, ps[0].name, first.N, first.Method, first.Placed, first.Plan, first.Shards)
		}
	}
	method, err := partition.ParseMethod(first.Method)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ps[0].name, err)
	}
	var placed []partition.Square
	if first.Placed != "-" {
		if placed, err = partition.ParseSquares(first.Placed); err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %w", ps[0].name, err)
		}
	}
	job := partition.Job{N: first.N, Method: method, Placed: placed, Piece: partition.Piece(first.Piece), Torus: first.Torus}
	pl, err := partition.NewPlanner(ctx, job)
	if err != nil && ctx.Err() != nil {
		return nil, nil, nil, fmt.Errorf("planning n = %d stopped: %w", job.N, context.Cause(ctx))
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ps[0].name, err)
	}
	tasks := pl.Size().Tasks
	for _, p := range ps {
		if h := p.file.Header; h.Shards > partition.MaxShards(tasks) || h.Tasks != tasks {
			return nil, nil, nil, fmt.Errorf("%s: its header claims %d tasks in %d shards, but the plan has %d tasks (and at most %d shards): the header was edited or damaged",
				p.name, h.Tasks, h.Shards, tasks, partition.MaxShards(tasks))
		}
	}
	if complete {
		if err := heldTasks(ps, tasks); err != nil {
			return nil, nil, nil, err
		}
	}
	plan, err := wholePlan(ctx, pl, job)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", ps[0].name, err)
	}
	if fp := plan.Fingerprint(); fp != first.Plan {
		return nil, nil, nil, fmt.Errorf("the files' plan %s is not this version's plan %s for n=%d method=%s (made by nqueens %s; use that version)",
			first.Plan, fp, first.N, first.Method, first.Tool)
	}
	if len(plan.Tasks) != tasks {
		return nil, nil, nil, fmt.Errorf("n = %d's plan has %d tasks, not the %d its planner said", job.N, len(plan.Tasks), tasks)
	}
	return ps, plan, notes, nil
}

// heldTasks is merge's check before the plan is made: the files must hold
// at least the plan's number of distinct tasks (the plan then tells which
// are missing; before it, the shards with no file, when every file there
// is is a complete shard file).
func heldTasks(ps []piece, tasks int) error {
	ids := map[string]struct{}{}
	for _, p := range ps {
		for _, r := range p.file.Records {
			ids[r.ID] = struct{}{}
		}
	}
	if len(ids) >= tasks {
		return nil
	}
	m := ps[0].file.Header.Shards
	msg := fmt.Sprintf("%d of %d tasks are missing (the files hold %d)", tasks-len(ids), tasks, len(ids))
	if m <= 1 {
		return errors.New(msg + "; resume the count to finish them")
	}
	have := make([]bool, m)
	for _, p := range ps {
		h := p.file.Header
		if h.Kind == resultfile.Journal || h.Shards <= 1 {
			return nil // in progress: the plan tells which shards are incomplete
		}
		have[h.Shard] = true
	}
	var gone []string
	for s, ok := range have {
		if !ok {
			gone = append(gone, strconv.Itoa(s))
		}
	}
	return fmt.Errorf("%s; missing or incomplete shards of %d: %s", msg, m, strings.Join(gone, ", "))
}

// wholePlan makes every task of job's plan, which merge and status check
// the files against, within the default memory limit.
func wholePlan(ctx context.Context, pl *partition.Planner, job partition.Job) (*partition.Plan, error) {
	limit, method := engine.DefaultMemory(), pl.Size().Method
	plan, err := pl.Plan(0, 1, max(1, engine.MaxTasks(job.N, method, 1, limit)))
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("planning n = %d stopped: %w", job.N, context.Cause(ctx))
	}
	var te *partition.TasksError
	if errors.As(err, &te) {
		return nil, fmt.Errorf("checking the files of n = %d (%s) against its plan holds its %d tasks, which needs %s: more than the %s (half of this machine's memory) that merge and status may take",
			job.N, method, te.Tasks, humanize.IBytes(uint64(engine.Need(job.N, partition.Sym, te.Tasks, 1))), humanize.IBytes(uint64(limit)))
	}
	return plan, err
}

// ledgerOf puts every piece's records in one ledger, checking that each
// file holds only tasks of its own shard.
func ledgerOf(ps []piece, plan *partition.Plan) (*ledger, error) {
	l := newLedger(plan)
	shardOf := map[int][]int{}
	for _, p := range ps {
		h := p.file.Header
		var own []int
		if h.Shards > 1 {
			if shardOf[h.Shards] == nil {
				s, err := plan.Split(h.Shards)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", p.name, err)
				}
				shardOf[h.Shards] = s
			}
			own = shardOf[h.Shards]
		}
		for k, r := range p.file.Records {
			i, err := l.add(r, p.name)
			if err != nil {
				return nil, err
			}
			if own != nil && own[i] != h.Shard {
				return nil, fmt.Errorf("%s: line %d: task %s belongs to shard %d/%d, not to the file's shard %d", p.name, k+2, r.ID, own[i], h.Shards, h.Shard)
			}
		}
	}
	return l, nil
}

// Merge reads the shard files and journals of one count, in any order, and
// returns its counts. It checks that every file belongs to the same plan
// (n, method, placed queens and the plan's fingerprint), that every line's
// checksum is right, that no task is given twice with different counts
// (identical duplicates are accepted and noted) and that every task of
// the plan is present; the error of a failed check names the missing
// shards or the offending file.
func Merge(ctx context.Context, files ...File) (Counts, error) {
	ps, plan, notes, err := readPieces(ctx, files, true)
	if err != nil {
		return Counts{}, err
	}
	l, err := ledgerOf(ps, plan)
	if err != nil {
		return Counts{}, err
	}
	if missing := l.missing(nil); len(missing) > 0 {
		return Counts{}, fmt.Errorf("%s", describeMissing(plan, ps, missing))
	}
	c, err := countsOf(plan, l.sum(nil), true)
	if err != nil {
		return Counts{}, err
	}
	if d := l.duplicatesNote(); d != "" {
		notes = append(notes, d)
	}
	c.Notes = notes
	return c, nil
}

// describeMissing says which tasks, and which shards, are missing.
func describeMissing(plan *partition.Plan, ps []piece, missing []int) string {
	var ids []string
	for _, i := range missing[:min(3, len(missing))] {
		ids = append(ids, plan.Tasks[i].ID)
	}
	msg := fmt.Sprintf("%d of %d tasks are missing (e.g. %s)", len(missing), len(plan.Tasks), strings.Join(ids, ", "))
	m := ps[0].file.Header.Shards
	if m > 1 {
		shardOf, _ := plan.Split(m)
		var gone []int
		for _, i := range missing {
			if !slices.Contains(gone, shardOf[i]) {
				gone = append(gone, shardOf[i])
			}
		}
		slices.Sort(gone)
		names := make([]string, len(gone))
		for k, s := range gone {
			names[k] = strconv.Itoa(s)
		}
		msg += fmt.Sprintf("; missing or incomplete shards of %d: %s", m, strings.Join(names, ", "))
	}
	return msg
}

// StatusReport is what [Status] found of a count in progress, per shard and
// in all. Work is the planner's cost estimate, the unit of [Progress].
type StatusReport struct {
	N int
	// Piece and Torus are what the count places (Piece omitted for queens).
	Piece  Piece
	Torus  bool
	Method Method
	Placed []Square
	// Shards is how many shards the plan was split into (1: none).
	Shards int
	// Total sums every shard; Rate and ETA are the sums of the shards
	// in progress, at their current rates.
	Total ShardStatus
	// Missing lists the shards with no file yet.
	Missing []int
	// PerShard has one entry per shard, in order.
	PerShard []ShardStatus
}

// ShardStatus is one shard's progress (or all shards', in
// [StatusReport].Total, whose Shard is -1).
type ShardStatus struct {
	Shard            int
	Files            []string
	TasksDone, Tasks int
	Work, WorkDone   float64
	// Rate is estimated work per second, from journals that record when
	// they were started and whose modification time is known; 0 when
	// unknown. ETA is the time left at that rate, 0 when unknown or done.
	Rate float64
	ETA  time.Duration
}

// Complete reports whether every task of the shard is counted.
func (s ShardStatus) Complete() bool { return s.TasksDone == s.Tasks }

// Fraction is the estimated share of the shard's work that is done.
func (s ShardStatus) Fraction() float64 {
	if s.Work == 0 {
		return 1
	}
	return s.WorkDone / s.Work
}

// Status reads the journals and shard files of one count, as [Merge] does
// (with the same checks, except that tasks may be missing), and reports
// per shard and in all the tasks counted of those planned, the estimated
// share of the work done, which shards have no file yet, and a rate and
// ETA where journals tell when they started.
func Status(ctx context.Context, files ...File) (StatusReport, error) {
	ps, plan, _, err := readPieces(ctx, files, false)
	if err != nil {
		return StatusReport{}, err
	}
	l, err := ledgerOf(ps, plan)
	if err != nil {
		return StatusReport{}, err
	}
	m := 1
	for _, p := range ps {
		m = max(m, p.file.Header.Shards)
	}
	shardOf, err := plan.Split(m)
	if err != nil {
		return StatusReport{}, err
	}
	rep := StatusReport{N: plan.N, Torus: plan.Torus, Method: Method(plan.Method), Placed: fromSquares(plan.Placed), Shards: m, PerShard: make([]ShardStatus, m), Missing: []int{}}
	if plan.Piece != partition.Queen {
		rep.Piece = Piece(plan.Piece)
	}
	for s := range rep.PerShard {
		rep.PerShard[s].Shard = s
	}
	for i, t := range plan.Tasks {
		s := &rep.PerShard[shardOf[i]]
		s.Tasks++
		s.Work += float64(t.Cost)
		if l.have[i] {
			s.TasksDone++
			s.WorkDone += float64(t.Cost)
		}
	}
	for _, p := range ps {
		h := p.file.Header
		s := &rep.PerShard[h.Shard]
		if h.Shards <= 1 && m > 1 {
			s = &rep.Total // a journal of the whole plan
		}
		s.Files = append(s.Files, p.name)
		if h.Kind != resultfile.Journal || h.Started == 0 || p.mod.IsZero() {
			continue
		}
		elapsed := p.mod.Sub(time.Unix(h.Started, 0)).Seconds()
		var work float64
		for _, r := range p.file.Records {
			if i, ok := l.lookup(r.ID); ok {
				work += float64(plan.Tasks[i].Cost)
			}
		}
		if elapsed > 0 {
			s.Rate += work / elapsed
		}
	}
	t := &rep.Total
	t.Shard = -1
	for s := range rep.PerShard {
		ss := &rep.PerShard[s]
		if len(ss.Files) == 0 && m > 1 && !ss.Complete() {
			rep.Missing = append(rep.Missing, s) // (a whole-count journal may hold its tasks)
		}
		if ss.Rate > 0 && !ss.Complete() {
			ss.ETA = time.Duration((ss.Work - ss.WorkDone) / ss.Rate * float64(time.Second))
			t.Rate += ss.Rate
		}
		t.TasksDone += ss.TasksDone
		t.Tasks += ss.Tasks
		t.Work += ss.Work
		t.WorkDone += ss.WorkDone
	}
	if t.Rate > 0 && !t.Complete() {
		t.ETA = time.Duration((t.Work - t.WorkDone) / t.Rate * float64(time.Second))
	}
	return rep, nil
}

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
func Audit(ctx context.Context, fraction float64, seed uint64, files []File, opts ...Option) (int, error) {
	if !(fraction >= 0 && fraction <= 1) {
		return 0, invalidf("audit fraction %v is not between 0 and 1", fraction)
	}
	c, err := newConfig("Audit", forAudit, opts)
	if err != nil {
		return 0, err
	}
	ps, plan, _, err := readPieces(ctx, files, false)
	if err != nil {
		return 0, err
	}
	l, err := ledgerOf(ps, plan)
	if err != nil {
		return 0, err
	}
	var todo []int
	limit := uint64(fraction * (1 << 63) * 2)
	for i := range plan.Tasks {
		if l.have[i] && (fraction == 1 || partition.Draw(uint64(i), seed) < limit) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return 0, nil
	}
	var bad error
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = engine.Run(runCtx, plan, engine.Options{Workers: c.workers, Memory: c.memory, Tasks: todo, OnResult: func(r engine.Result) {
		got := l.got[r.Task]
		if r.Task = got.Task; r != got && bad == nil {
			bad = fmt.Errorf("audit: task %s in %s has total %d, unique %d, point %d, rot90 %d, nodes %d, but recounts to %d, %d, %d, %d, %d: the line is wrong (forged, or miscounted by the machine that wrote it; audit seed %d)",
				plan.Tasks[got.Task].ID, l.sources[l.from[got.Task]], got.Total, got.Unique, got.PointSym, got.Rot90Sym, got.Nodes, r.Total, r.Unique, r.PointSym, r.Rot90Sym, r.Nodes, seed)
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
	return len(todo), nil
}
