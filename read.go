package nqueens

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/regular"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// This file reads the files of a count (shard files and journals) for
// Merge, Status and Audit: their headers, one plan, a ledger of their
// lines, a shard at a time where they are of one split.

// File is a shard file or journal of a count, read by [Merge], [Status]
// and [Audit]: its content R, or with R nil the file at the path Name,
// which they open (regular files only: a FIFO would block, a device never
// end) and read with its modification time. ModTime, if known, is when it
// was last written (a journal's progress).
type File struct {
	Name    string
	R       io.Reader
	ModTime time.Time
	// Listed is set for a file found by listing a directory, not named
	// by the caller: [Status] passes over one that is gone by the time it
	// is read (a journal that its shard removed on finishing).
	Listed bool
}

// open opens f for reading: its reader, or the file at its path
// (regular files only, opened without blocking, so that a FIFO or a
// device put in its place is refused, never waited on), with its
// modification time. Errors name the file.
func (f File) open() (io.ReadCloser, File, error) {
	if f.R != nil {
		return io.NopCloser(f.R), f, nil
	}
	h, st, err := regular.Open(f.Name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, regular.ErrNotRegular) {
		return nil, f, invalid(err) // the caller named a file that is not there to read
	}
	if err != nil {
		return nil, f, err
	}
	f.ModTime = st.ModTime()
	return h, f, nil
}

// countFile is one file of a count (a shard file or a journal), its header read first and its records
// later, straight into the count's ledger.
type countFile struct {
	name string
	head resultfile.Header
	mod  time.Time
	// src is the file; r, for a reader that cannot be read again, is
	// where its header line (kept in first) ended. A file named by path
	// is opened again for its records, so that reading many files holds
	// one open at a time; start is where a seekable reader's file begins.
	src   File
	first []byte
	r     io.Reader
	start int64
	// lines is how many task lines a whole count's file holds, read
	// before the plan is made (-1: not read).
	lines int
	// Filled in as the records are read: torn, and, of a journal, the
	// estimated work of its tasks (status' rate); gone, when a journal
	// named by path was removed before its records were read (its shard
	// finished while status read the files), and so holds none.
	torn      bool
	work      float64
	gone      bool
	mayVanish bool // running: gone is no error
}

// head reads f's header line alone. A file it can read again (named by
// path, or a reader that can seek back) is read again for its records;
// from another reader, the rest is read on from where the header ended.
func head(f File) (countFile, error) {
	var start int64
	seeker, again := f.R.(io.Seeker)
	if f.R == nil {
		again = true
	} else if again {
		var err error
		if start, err = seeker.Seek(0, io.SeekCurrent); err != nil {
			again = false
		}
	}
	rc, f, err := f.open()
	if err != nil {
		return countFile{}, err
	}
	defer rc.Close()
	br := bufio.NewReader(rc)
	line, h, err := resultfile.ReadHeader(br)
	if err != nil {
		return countFile{}, fmt.Errorf("%s: %w", msg.Path(f.Name), err)
	}
	p := countFile{name: msg.Path(f.Name), head: h, mod: f.ModTime, src: f, lines: -1}
	switch {
	case !again:
		p.first, p.r = line, br // read on from here
	case seeker != nil:
		if _, err := seeker.Seek(start, io.SeekStart); err != nil {
			return countFile{}, fmt.Errorf("%s: %w", p.name, err)
		}
		p.start = start
	}
	return p, nil
}

// countLines reads p whole, checking every line (a damaged or foreign
// line is named before anything else is said of the files) and counting
// its task lines without keeping them: a bound on the tasks it holds that
// costs no memory. A reader that cannot be read again is left unread
// (lines stays -1).
func (p *countFile) countLines() error {
	if p.r != nil {
		return nil
	}
	rc, _, err := p.src.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	f, err := resultfile.Scan(rc, nil, func(resultfile.Record, int) error { return nil })
	if err != nil {
		return fmt.Errorf("%s: %w", p.name, err)
	}
	if s, ok := p.src.R.(io.Seeker); ok {
		if _, err := s.Seek(p.start, io.SeekStart); err != nil {
			return fmt.Errorf("%s: %w", p.name, err)
		}
	}
	p.lines = f.Lines
	return nil
}

// readHeads reads the headers of the files of one count (one line each),
// which must describe one count (n, method, placement, pieces, plan and
// split, with the task count the planner gives before any task is made: a
// forged header is refused at once), and makes the count's planner. With
// running set (status of a count that runs), a file found by listing a
// directory ([File].Listed) that is no longer there (a shard that
// finished removed its journal after the files were listed) is skipped,
// at once or when its records are read.
func readHeads(ctx context.Context, files []File, running bool) ([]countFile, *partition.Planner, partition.Job, error) {
	fail := func(err error) ([]countFile, *partition.Planner, partition.Job, error) {
		return nil, nil, partition.Job{}, err
	}
	if len(files) == 0 {
		return fail(invalidf("no files to read"))
	}
	ps := make([]countFile, 0, len(files))
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return fail(fmt.Errorf("reading the files stopped: %w", context.Cause(ctx)))
		}
		p, err := head(f)
		if running && f.Listed && f.R == nil && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil { // names the file
			return fail(err)
		}
		p.mayVanish = running && f.Listed && f.R == nil
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return fail(invalidf("none of the %d files named is there any more", len(files)))
	}
	first := ps[0].head
	for _, p := range ps[1:] {
		h := p.head
		if h.N != first.N || h.Method != first.Method || h.Placed != first.Placed || h.Board() != first.Board() {
			return fail(fmt.Errorf("%s holds %s, but %s holds %s: they are not pieces of one count",
				p.name, h.Describe(), ps[0].name, first.Describe()))
		}
		if h.Plan != first.Plan {
			return fail(fmt.Errorf("%s is of plan %s (nqueens %s), but %s of plan %s (nqueens %s), both %s: pieces of one count share one plan (count them with one version)",
				p.name, h.Plan, h.Tool, ps[0].name, first.Plan, first.Tool, resultfile.Header{N: h.N, Method: h.Method, Placed: h.Placed, Piece: h.Piece, Torus: h.Torus}.Describe()))
		}
	}
	split := -1 // the first file of a shard, whose shard count every shard's file shares
	for k, p := range ps {
		if h := p.head; h.Shards > 1 {
			if split < 0 {
				split = k
			} else if s := ps[split].head; h.Shards != s.Shards {
				return fail(fmt.Errorf("%s is shard %d of %d, but %s is shard %d of %d: shards of different splits are not pieces of one count (a journal of the whole count mixes with either)",
					p.name, h.Shard, h.Shards, ps[split].name, s.Shard, s.Shards))
			}
		}
	}
	method, err := partition.ParseMethod(first.Method)
	if err != nil {
		return fail(fmt.Errorf("%s: %w", ps[0].name, err))
	}
	var placed []board.Square
	if first.Placed != "-" {
		if placed, err = board.ParseSquares(first.Placed); err != nil {
			return fail(fmt.Errorf("%s: %w", ps[0].name, err))
		}
	}
	job := partition.Job{N: first.N, Method: method, Placed: placed, Piece: board.Piece(first.Piece), Torus: first.Torus}
	pl, err := newPlanner(ctx, job)
	if err != nil && ctx.Err() != nil {
		return fail(fmt.Errorf("planning n = %d stopped: %w", job.N, context.Cause(ctx)))
	}
	if err != nil {
		return fail(fmt.Errorf("%s: %w", ps[0].name, err))
	}
	tasks := pl.Size().Tasks
	for _, p := range ps {
		if h := p.head; h.Shards > partition.MaxShards(tasks) || h.Tasks != tasks {
			return fail(fmt.Errorf("%s: its header claims %d tasks in %d shards, but the plan has %d tasks (and at most %d shards): the header was edited or damaged",
				p.name, h.Tasks, h.Shards, tasks, partition.MaxShards(tasks)))
		}
	}
	return ps, pl, job, nil
}

// readLedger reads the files of one count once their headers are read
// ([readHeads]): when complete (merge) and every file is a shard file, it
// checks that no shard is missing; then it makes the whole plan and reads
// every file's records straight into one ledger that holds one result per
// task of the plan (so reading costs what the plan's tasks need, however
// many lines the files have), each line checked to belong to its file's
// shard. [shardByShard] reads the files of one split holding one shard at
// a time instead.
func readLedger(ctx context.Context, ps []countFile, pl *partition.Planner, job partition.Job, complete bool) ([]countFile, *partition.Plan, *ledger, []string, error) {
	first, tasks := ps[0].head, pl.Size().Tasks
	if complete && first.Shards <= 1 {
		// A whole count's files (a journal, mostly): every line read
		// once before the plan is made, to refuse files that hold too
		// few tasks at once (planning costs seconds and gigabytes from
		// n = 25 on).
		for k := range ps {
			if err := ps[k].countLines(); err != nil {
				return nil, nil, nil, nil, err
			}
		}
	}
	if complete {
		if err := shardsPresent(ps, tasks); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	plan, err := wholePlan(ctx, pl, job)
	if err != nil {
		return nil, nil, nil, nil, fmt.Errorf("%s: %w", ps[0].name, err)
	}
	if err := samePlan(first, plan.Fingerprint()); err != nil {
		return nil, nil, nil, nil, err
	}
	if len(plan.Tasks) != tasks {
		return nil, nil, nil, nil, fmt.Errorf("n = %d's plan has %d tasks, not the %d its planner said", job.N, len(plan.Tasks), tasks)
	}
	l := newLedger(plan)
	shardOf := map[int][]int{}
	var notes []string
	for k := range ps {
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, nil, fmt.Errorf("reading the files stopped: %w", context.Cause(ctx))
		}
		p := &ps[k]
		h := p.head
		var own []int
		if h.Shards > 1 {
			if shardOf[h.Shards] == nil {
				s, err := plan.Split(h.Shards)
				if err != nil {
					return nil, nil, nil, nil, fmt.Errorf("%s: %w", p.name, err)
				}
				shardOf[h.Shards] = s
			}
			own = shardOf[h.Shards]
		}
		if err := p.records(l, own); err != nil {
			return nil, nil, nil, nil, err
		}
		if p.torn {
			notes = append(notes, fmt.Sprintf("%s: the journal's last record was incomplete and is ignored", p.name))
		}
	}
	return ps, plan, l, notes, nil
}

// samePlan checks that the files (of header h) are of the plan of
// fingerprint fp, this version's.
func samePlan(h resultfile.Header, fp string) error {
	if fp != h.Plan {
		return fmt.Errorf("the files' plan %s is not this version's plan %s for n=%d method=%s (made by nqueens %s; use that version)",
			h.Plan, fp, h.N, h.Method, h.Tool)
	}
	return nil
}

// oneSplit is m when every file is of one split into m > 1 shards (shard
// files and journals of shards, no journal of the whole count), which
// [shardByShard] reads; 0 otherwise.
func oneSplit(ps []countFile) int {
	m := ps[0].head.Shards
	for _, p := range ps {
		if p.head.Shards != m {
			return 0
		}
	}
	if m <= 1 {
		return 0
	}
	return m
}

// shardByShard reads the files of one split into m shards ([oneSplit])
// shard by shard, in one walk of the plan that holds one shard's tasks
// and results at a time (n = 28's whole plan and its results take about
// 18 GB; a shard of 100,000 takes a few hundred tasks): for each shard in
// order, the files of that shard are read into a ledger of its tasks
// alone (each line checked as [readLedger] checks it, and to belong to
// the shard), and visit gets the shard's plan, the ledger, and the index
// in the whole plan of the shard's first task. It returns readLedger's
// notes of torn journals.
func shardByShard(ctx context.Context, ps []countFile, pl *partition.Planner, m int, visit func(sp *partition.Plan, l *ledger, first int) error) ([]string, error) {
	byShard := make([][]int, m)
	for k := range ps {
		s := ps[k].head.Shard
		byShard[s] = append(byShard[s], k)
	}
	var notes []string
	var tasks []partition.Task
	cur, first := 0, 0
	flush := func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		sp := pl.PlanOf(tasks, cur, m)
		l := newLedger(sp)
		for _, k := range byShard[cur] {
			p := &ps[k]
			if err := p.records(l, nil); err != nil {
				return err
			}
			if p.torn {
				notes = append(notes, fmt.Sprintf("%s: the journal's last record was incomplete and is ignored", p.name))
			}
		}
		if err := visit(sp, l, first); err != nil {
			return err
		}
		first += len(tasks)
		tasks, cur = nil, cur+1
		return nil
	}
	walking()
	err := pl.Walk(m, func(fp string) error { return samePlan(ps[0].head, fp) }, func(t partition.Task, s int) error {
		for cur < s {
			if err := flush(); err != nil {
				return err
			}
		}
		tasks = append(tasks, t)
		return nil
	})
	for err == nil && cur < m {
		err = flush()
	}
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("reading the files stopped: %w", context.Cause(ctx))
	}
	return notes, err
}

// records reads p's records into the ledger, each checked to belong to
// the file's shard (own: the shard of each task; nil for a whole count).
func (p *countFile) records(l *ledger, own []int) error {
	r := p.r
	if r == nil {
		rc, _, err := p.src.open()
		if p.mayVanish && errors.Is(err, fs.ErrNotExist) {
			p.gone = true
			return nil
		}
		if err != nil {
			return err
		}
		defer rc.Close()
		r = rc
	} else {
		r = io.MultiReader(bytes.NewReader(p.first), r)
	}
	h, plan := p.head, l.plan
	var lineErr error
	f, err := resultfile.Scan(r, func(got resultfile.Header) error {
		if got != h {
			return fmt.Errorf("%s changed while it was read (its header is not what it was): read it again once it is complete", p.name)
		}
		return nil
	}, func(rec resultfile.Record, line int) error {
		i, err := l.add(rec, p.name)
		switch {
		case err != nil:
			lineErr = err
		case own != nil && own[i] != h.Shard:
			lineErr = fmt.Errorf("%s: line %d: task %s belongs to shard %d/%d, not to the file's shard %d", p.name, line, rec.ID, own[i], h.Shards, h.Shard)
		case h.Kind == resultfile.Journal:
			p.work += float64(plan.Tasks[i].Cost)
		}
		return lineErr
	})
	switch {
	case lineErr != nil:
		return lineErr
	case err != nil:
		return fmt.Errorf("%s: %w", p.name, err)
	}
	p.torn = f.Torn
	return nil
}

// shardsPresent is merge's check before the plan is made (planning costs
// seconds and gigabytes from n = 25 on): when every file is a complete
// shard file (the kind with an end line), every shard of the split must
// have one; and the files named by path must have at least as many task
// lines as the plan has tasks.
func shardsPresent(ps []countFile, tasks int) error {
	held, known := 0, true
	for _, p := range ps {
		held += max(0, p.lines)
		known = known && p.lines >= 0
	}
	missing := ""
	if known && held < tasks {
		missing = fmt.Sprintf("%d of %d tasks are missing (the files hold %d)", tasks-held, tasks, held)
	}
	m := ps[0].head.Shards
	if m <= 1 {
		if missing != "" {
			return errors.New(missing + "; resume the count to finish them")
		}
		return nil
	}
	have := make([]bool, m)
	for _, p := range ps {
		h := p.head
		if h.Kind != resultfile.Shard || h.Shards <= 1 {
			return nil // in progress, or a whole count's journal: the plan tells which tasks are missing
		}
		have[h.Shard] = true
	}
	var gone []int
	for s, ok := range have {
		if !ok {
			gone = append(gone, s)
		}
	}
	if len(gone) > 0 {
		return fmt.Errorf("%d of %d shards have no file; missing or incomplete shards of %d: %s", len(gone), m, m, msg.Ranges(gone))
	}
	return nil // each shard has a file: the plan tells which lacks what
}

// walking is called as merge or status begins to walk a plan's tasks
// (its whole plan, or shard by shard): the tests' seam to show a file
// refused before planning.
var walking = func() {}

// wholePlan makes every task of job's plan, which merge and status check
// the files against, within the default memory limit.
func wholePlan(ctx context.Context, pl *partition.Planner, job partition.Job) (*partition.Plan, error) {
	walking()
	limit, method := engine.DefaultMemory(), pl.Size().Method
	plan, err := pl.Plan(0, 1, max(1, engine.MaxTasks(job.N, method, 1, limit)))
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("planning n = %d stopped: %w", job.N, context.Cause(ctx))
	}
	var te *partition.TasksError
	if errors.As(err, &te) {
		return nil, fmt.Errorf("checking the files of n = %d (%s) against its plan holds its %d tasks, which needs %s: more than the %s (half of this machine's memory) that merge and status may take",
			job.N, method, te.Tasks, humanize.IBytes(uint64(engine.MemoryNeed(job.N, partition.Sym, te.Tasks, 1))), humanize.IBytes(uint64(limit)))
	}
	return plan, err
}
