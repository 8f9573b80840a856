package nqueens

import (
	"context"
	"time"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// This file is Status: a count in progress, per shard, with its rate and
// ETA.

// rate is the work per second a journal shows: the work of its tasks over
// the time from its start to its last write, or 0 when that is unknown
// (no start recorded, or a start that a wrong clock put after the last
// write or decades before it: a rate from it would give an ETA that is
// nonsense, or that overflows).
func rate(work float64, started, last time.Time) float64 {
	elapsed := last.Sub(started)
	if started.Unix() <= 0 || elapsed <= 0 || elapsed > maxElapsed || work <= 0 {
		return 0
	}
	return work / elapsed.Seconds()
}

// maxElapsed is the longest a journal's count is believed to have run.
const maxElapsed = 20 * 365 * 24 * time.Hour

// eta is the time left for work at rate, 0 when unknown; it is capped
// below what a time.Duration holds.
func eta(work, rate float64) time.Duration {
	if rate <= 0 || work <= 0 {
		return 0
	}
	secs := work / rate
	if secs >= float64(maxETA/time.Second) {
		return maxETA
	}
	return time.Duration(secs * float64(time.Second))
}

// maxETA caps an ETA: a rate that small says "unknown" as well as any.
const maxETA = 100 * 365 * 24 * time.Hour

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
	// Total sums every shard. Its Rate is the campaign's throughput from
	// its finished shards (the work of the shard files written after the
	// first, over the time since: scheduling gaps included), else the
	// sum of the rates of the shards in progress; ETA the time left at
	// that rate.
	Total ShardStatus
	// Missing lists the shards with no file yet.
	Missing []int
	// PerShard has one entry per shard, in order.
	PerShard []ShardStatus
}

// ShardStatus is one shard's progress (or all shards', in
// [StatusReport].Total, whose Shard is -1).
type ShardStatus struct {
	Shard int
	// Files are the names of the shard's files as the caller gave them
	// ([File].Name, or the path found by listing a directory), whole
	// however long.
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
// (with the same checks, except that tasks may be missing, and that a
// file found by listing a directory ([File].Listed) that is gone by the
// time it is read, a journal its finished shard removed, is passed over),
// and reports
// per shard and in all the tasks counted of those planned, the estimated
// share of the work done, which shards have no file yet, and a rate and
// ETA where journals tell when they started. (One function: it reads the
// files as Merge does and fills one report; the rates are finishedRate's.)
func Status(ctx context.Context, files ...File) (StatusReport, error) {
	if err := nilContext("Status", ctx); err != nil {
		return StatusReport{}, err
	}
	ps, pl, job, err := readHeads(ctx, files, true)
	if err != nil {
		return StatusReport{}, err
	}
	m := 1
	for _, p := range ps {
		m = max(m, p.head.Shards)
	}
	whole := pl.PlanOf(nil, 0, 1)
	rep := StatusReport{N: whole.N, Torus: whole.Torus, Method: Method(whole.Method), Placed: squaresOf(whole.Placed), Shards: m, PerShard: make([]ShardStatus, m), Missing: []int{}}
	if whole.Piece != board.Queen {
		rep.Piece = Piece(whole.Piece)
	}
	for s := range rep.PerShard {
		rep.PerShard[s].Shard = s
	}
	// Each shard's tasks and work, and those its files hold: one shard
	// at a time for the files of one split, else against the whole plan.
	tally := func(s *ShardStatus, t *partition.Task, have bool) {
		s.Tasks++
		s.Work += float64(t.Cost)
		if have {
			s.TasksDone++
			s.WorkDone += float64(t.Cost)
		}
	}
	if oneSplit(ps) > 1 {
		_, err = shardByShard(ctx, ps, pl, m, func(sp *partition.Plan, l *ledger, _ int) error {
			for i := range sp.Tasks {
				tally(&rep.PerShard[sp.Shard], &sp.Tasks[i], l.have[i])
			}
			return nil
		})
		if err != nil {
			return StatusReport{}, err
		}
	} else {
		_, plan, l, _, err := readLedger(ctx, ps, pl, job, false)
		if err != nil {
			return StatusReport{}, err
		}
		shardOf, err := plan.Split(m)
		if err != nil {
			return StatusReport{}, err
		}
		for i := range plan.Tasks {
			tally(&rep.PerShard[shardOf[i]], &plan.Tasks[i], l.have[i])
		}
	}
	for _, p := range ps {
		if p.gone {
			continue
		}
		h := p.head
		s := &rep.PerShard[h.Shard]
		if h.Shards <= 1 && m > 1 {
			s = &rep.Total // a journal of the whole plan
		}
		s.Files = append(s.Files, p.src.Name)
		if h.Kind != resultfile.Journal || h.Started == 0 || p.mod.IsZero() {
			continue
		}
		if r := rate(p.work, time.Unix(h.Started, 0), p.mod); r > 0 {
			s.Rate += r
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
			ss.ETA = eta(ss.Work-ss.WorkDone, ss.Rate)
			t.Rate += ss.Rate
		}
		t.TasksDone += ss.TasksDone
		t.Tasks += ss.Tasks
		t.Work += ss.Work
		t.WorkDone += ss.WorkDone
	}
	if r := finishedRate(ps, rep.PerShard); r > 0 {
		t.Rate = r
	}
	if t.Rate > 0 && !t.Complete() {
		t.ETA = eta(t.Work-t.WorkDone, t.Rate)
	}
	return rep, nil
}

// finishedRate is a campaign's throughput from its finished shards: the
// work of those whose shard file was written after the first one's, over
// the time from the first to the last (scheduling gaps and stops
// included); 0 (unknown) when fewer than three shard files tell their
// time or they were written within [minFinishedSpan] of each other, too
// close to tell a rate (two shards of a small count written a few
// milliseconds apart said "ETA 0s" at half done).
func finishedRate(ps []countFile, shards []ShardStatus) float64 {
	var first, last time.Time
	var work, firstWork float64
	seen := map[int]bool{}
	for _, p := range ps {
		h := p.head
		if h.Kind != resultfile.Shard || h.Shards <= 1 || p.mod.IsZero() || p.gone || seen[h.Shard] || !shards[h.Shard].Complete() {
			continue
		}
		seen[h.Shard] = true
		w := shards[h.Shard].Work
		work += w
		if first.IsZero() || p.mod.Before(first) {
			first, firstWork = p.mod, w
		}
		if p.mod.After(last) {
			last = p.mod
		}
	}
	if len(seen) < 3 || last.Sub(first) < minFinishedSpan {
		return 0
	}
	return rate(work-firstWork, first, last)
}

// minFinishedSpan is the least time over which finished shard files tell
// a campaign's rate.
const minFinishedSpan = time.Minute
