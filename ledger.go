package nqueens

import (
	"fmt"
	"slices"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// ledger holds at most one result per task of a plan, keyed by task ID: the
// one place where results from a journal, a run and shard files meet. Its
// rule for duplicates is the same everywhere (resume, merge, status): a
// task given twice with identical counts is accepted once and reported; a
// task given twice with different counts is refused.
//
// It takes about 50 bytes a task (a plan of n = 23 has 4 million), and
// indexes the tasks by ID only once results come by ID (from files).
type ledger struct {
	plan    *partition.Plan
	index   map[string]int // by ID; built by lookup
	got     []engine.Result
	have    []bool
	from    []uint32 // into sources
	sources []string
	dups    int
}

func newLedger(plan *partition.Plan) *ledger {
	return &ledger{plan: plan, got: make([]engine.Result, len(plan.Tasks)), have: make([]bool, len(plan.Tasks)),
		from: make([]uint32, len(plan.Tasks))}
}

// lookup returns the index of the task with the given ID.
func (l *ledger) lookup(id string) (int, bool) {
	if l.index == nil {
		l.index = make(map[string]int, len(l.plan.Tasks))
		for i, t := range l.plan.Tasks {
			l.index[t.ID] = i
		}
	}
	i, ok := l.index[id]
	return i, ok
}

// add takes the record of one task from source (a file's name). It returns
// the task's index, or an error for a task the plan does not have or one
// already held with other counts.
func (l *ledger) add(rec resultfile.Record, source string) (int, error) {
	i, ok := l.lookup(rec.ID)
	if !ok && l.plan.Shards > 1 {
		return -1, fmt.Errorf("%s: task %q is not one of shard %d/%d's tasks (it belongs to another shard, or to none: the file's header or the line was edited)", source, rec.ID, l.plan.Shard, l.plan.Shards)
	}
	if !ok {
		return -1, fmt.Errorf("%s: task %q is not in the plan", source, rec.ID)
	}
	if err := plausible(l.plan, i, rec); err != nil {
		return -1, fmt.Errorf("%s: %w", source, err)
	}
	r := resultOf(rec)
	r.Task = i
	if l.have[i] {
		if l.got[i] != r {
			return -1, fmt.Errorf("task %s has different counts in %s (total %d) and %s (total %d)", rec.ID, l.sources[l.from[i]], l.got[i].Total, source, rec.Total)
		}
		l.dups++
		return i, nil
	}
	l.put(i, r, source)
	return i, nil
}

// put records task i's result (r.Task is i), known to be new.
func (l *ledger) put(i int, r engine.Result, source string) {
	k := len(l.sources) - 1
	if k < 0 || l.sources[k] != source {
		k = slices.Index(l.sources, source)
		if k < 0 {
			k = len(l.sources)
			l.sources = append(l.sources, source)
		}
	}
	l.got[i], l.have[i], l.from[i] = r, true, uint32(k)
}

// missing returns the tasks among of (nil: every task) without a result.
func (l *ledger) missing(of []int) []int {
	var m []int
	l.each(of, func(i int) {
		if !l.have[i] {
			m = append(m, i)
		}
	})
	return m
}

// sum adds up the results of the tasks among of (nil: every task) that it
// holds.
func (l *ledger) sum(of []int) engine.Counts {
	var c engine.Counts
	l.each(of, func(i int) {
		if l.have[i] {
			c.Add(l.got[i])
		}
	})
	return c
}

// records returns the records of the tasks among of, in plan order.
func (l *ledger) records(of []int) []resultfile.Record {
	var recs []resultfile.Record
	l.each(of, func(i int) {
		if l.have[i] {
			recs = append(recs, recordOf(l.plan.Tasks[i].ID, l.got[i]))
		}
	})
	return recs
}

func (l *ledger) each(of []int, f func(i int)) {
	if of == nil {
		for i := range l.got {
			f(i)
		}
		return
	}
	for _, i := range of {
		f(i)
	}
}

// duplicatesNote says that dups identical duplicates were accepted.
func duplicatesNote(dups int) string {
	return fmt.Sprintf("%d tasks appear more than once, with identical counts: each is counted once", dups)
}

// recordOf is a task's result as journals and shard files store it.
func recordOf(id string, r engine.Result) resultfile.Record {
	return resultfile.Record{ID: id, Total: r.Total, TotalHi: r.TotalHi, Unique: r.Unique, Point: r.PointSym, Rot90: r.Rot90Sym, Nodes: r.Nodes}
}

// resultOf is recordOf's inverse.
func resultOf(rec resultfile.Record) engine.Result {
	return engine.Result{Total: rec.Total, TotalHi: rec.TotalHi, Unique: rec.Unique, PointSym: rec.Point, Rot90Sym: rec.Rot90, Nodes: rec.Nodes}
}

// plausible checks a record read from a file against what its task can
// hold ([partition.Bound]): no count above the bound, and no
// rot90-symmetric solutions beyond the point-symmetric ones of the same
// task (every solution equal to its 90° rotation equals its 180° one).
func plausible(plan *partition.Plan, i int, rec resultfile.Record) error {
	t := &plan.Tasks[i]
	bound := wide.FromWords(partition.Bound(plan.N, t))
	above := func(x uint64) bool { return wide.Of(x).Cmp(bound) > 0 }
	total, fits := wide.FromBig(rec.BigTotal())
	switch {
	case !fits || total.Cmp(bound) > 0:
		return fmt.Errorf("task %s has a total of %s, more than it can hold (at most %s): the line is forged or damaged", rec.ID, rec.BigTotal(), bound)
	case above(rec.Unique), above(rec.Point), above(rec.Rot90):
		return fmt.Errorf("task %s has class counts (unique %d, point %d, rot90 %d) beyond what it can hold (at most %s): the line is forged or damaged", rec.ID, rec.Unique, rec.Point, rec.Rot90, bound)
	case rec.Rot90 > rec.Point && t.Kind == board.Classify:
		return fmt.Errorf("task %s has more rot90-symmetric solutions (%d) than point-symmetric ones (%d): the line is forged or damaged", rec.ID, rec.Rot90, rec.Point)
	}
	return nil
}
