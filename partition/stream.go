package partition

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"math/bits"
	"slices"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/wide"
)

// This file is the planner's stream: every plan is made by walking its
// tasks in plan order, holding none of them but those kept. A whole plan
// keeps every task; a shard is a contiguous range of that order, balanced
// by estimated cost, chosen in two passes (the first sums the costs, the
// second keeps the shard's tasks and stops after them), so a shard of a
// board with hundreds of millions of tasks holds its own few alone.

// source enumerates one job's tasks in plan order.
type source struct {
	job   Job
	w     *walker
	join  bool
	seeds []seed
	depth int
	tasks int // prefix methods: the number of tasks, from chooseDepth
}

// errEnough ends a walk that has what it needs (never returned).
var errEnough = errors.New("partition: enough")

// each calls visit with every task in plan order until it returns false.
// The task is reused between calls, its Prefix too, and its ID is empty
// for all but the join's symmetric searches: [source.name] makes it.
// tag is the seed's tag (prefix tasks).
func (s *source) each(visit func(t *Task, tag string) bool) error {
	if s.join {
		s.eachJoin(visit)
	} else {
		s.eachPrefix(visit)
	}
	err := s.w.err
	if err == errEnough {
		s.w.err = nil
		return nil
	}
	return err
}

func (s *source) eachPrefix(visit func(t *Task, tag string) bool) {
	n := s.job.N
	var t Task
	for _, sd := range s.seeds {
		prefixes(s.w, n, sd, sd.depth(s.depth), func(b position, prefix []uint8) {
			if s.w.err != nil {
				return
			}
			t = Task{Kind: sd.kind, Weight: sd.weight, Cost: estimate(b, sd.bans), Prefix: prefix, Bans: sd.bans, Flip: sd.flip}
			if !visit(&t, sd.tag) {
				s.w.err = errEnough
			}
		})
		if s.w.err != nil {
			return
		}
	}
}

func (s *source) eachJoin(visit func(t *Task, tag string) bool) {
	n := s.job.N
	for _, t := range symmetricTasks(n) {
		if !visit(&t, "") {
			s.w.err = errEnough
			return
		}
	}
	h := n / 2
	all := below(n)
	jc := newJoinCoster(n)
	t := Task{Kind: board.Halves, Middle: -1}
	if board.JoinMiddle(n) == 2 {
		// Every set of east rows, the ways of the middle queens and their
		// weights within it (JoinPairs).
		t.Weight = 4
		forEachSubset(s.w, n, board.JoinSide(n), -1, func(e uint64) bool {
			t.Cost, t.Rows = jc.costPairs(e), e
			return visit(&t, "")
		})
		return
	}
	if n%2 == 0 {
		forEachSubset(s.w, n, h, -1, func(e uint64) bool {
			if w := orbit(e, all, n, true); w > 0 {
				t.Weight, t.Cost, t.Rows = w, jc.cost(e, all&^e, -1), e
				return visit(&t, "")
			}
			return true
		})
		return
	}
	for a := 0; a <= h && s.w.err == nil; a++ {
		rest := all &^ (1 << uint(a))
		flip := a == h // the centre queen keeps the up-down flip
		t.Middle = int8(a)
		forEachSubset(s.w, n-1, h, a, func(e uint64) bool {
			w := orbit(e, rest, n, flip)
			if a < h {
				w *= 2 // and the middle queen in row n-1-a
			}
			if w > 0 {
				t.Weight, t.Cost, t.Rows = w, jc.cost(e, rest&^e, a), e
				return visit(&t, "")
			}
			return true
		})
	}
}

// name returns the ID of a task visited by each with the given tag.
func (s *source) name(t *Task, tag string) string {
	switch {
	case t.ID != "":
		return t.ID
	case t.Kind == board.Halves && t.Middle >= 0:
		return fmt.Sprintf("m%d:e%0*x", t.Middle, (s.job.N+3)/4, t.Rows)
	case t.Kind == board.Halves:
		return fmt.Sprintf("e%0*x", (s.job.N+3)/4, t.Rows)
	}
	return tag + taskID(t.Prefix)
}

// keep returns a copy of a visited task that owns its prefix and ID.
func (s *source) keep(t *Task, tag string) Task {
	k := *t
	k.ID = s.name(t, tag)
	if t.Prefix != nil {
		k.Prefix = append([]uint8(nil), t.Prefix...)
	}
	return k
}

// plan returns an empty plan with the job's description.
func (s *source) plan() *Plan {
	return &Plan{N: s.job.N, Method: s.job.Method, Piece: s.job.Piece, Torus: s.job.Torus, Placed: s.job.Placed, Depth: s.depth, Shards: 1}
}

// fingerprinter hashes a plan's identity as its tasks stream by.
type fingerprinter struct {
	h     hash.Hash
	buf   []byte
	tasks uint64
	cost  uint64
	over  bool // the costs' sum overflowed
}

func newFingerprinter(p *Plan) *fingerprinter {
	f := &fingerprinter{h: sha256.New(), buf: make([]byte, 0, 8192)}
	f.buf = binary.LittleEndian.AppendUint64(f.buf, version)
	f.buf = binary.LittleEndian.AppendUint64(f.buf, uint64(p.N))
	f.buf = append(f.buf, p.Method...)
	f.buf = append(f.buf, 0)
	f.buf = append(f.buf, board.PlacedString(p.Placed)...)
	f.buf = append(f.buf, 0)
	f.buf = append(f.buf, board.BoardName(p.Piece, p.Torus)...)
	f.buf = append(f.buf, 0)
	if p.Piece.Rules(p.Torus) != (board.Rules{Long: true}) {
		// The pieces' kernel's nodes changed with its look-ahead (2): a
		// task's line of another kernel would not pass an audit.
		f.buf = append(f.buf, "pieces-kernel-2"...)
		f.buf = append(f.buf, 0)
	}
	if p.Method == Join && board.JoinMiddle(p.N) == 2 {
		// Its tasks are sets of east rows with the ways of two middle
		// queens (JoinPairs): a plan of another shape.
		f.buf = append(f.buf, "join-two-middle"...)
		f.buf = append(f.buf, 0)
	}
	if p.Method == Join && board.JoinLong(p.N) {
		// Its tasks count other shares of the total (see JoinLongFrom).
		f.buf = append(f.buf, "join-long-weights"...)
		f.buf = append(f.buf, 0)
	}
	return f
}

// add hashes one task: everything that decides what it counts, how its
// count is weighted and which shard it falls in (its cost).
func (f *fingerprinter) add(t *Task, tag string) {
	b := append(f.buf, tag...)
	b = append(b, 0, byte(t.Kind), byte(t.Middle), byte(len(t.Prefix)))
	if t.Flip {
		b = append(b, 1)
	}
	b = append(b, t.Prefix...)
	b = append(b, t.ID...)
	b = binary.LittleEndian.AppendUint64(b, t.Rows)
	b = binary.LittleEndian.AppendUint64(b, t.Weight)
	b = binary.LittleEndian.AppendUint64(b, t.Cost)
	if len(b) > 7*1024 {
		f.h.Write(b)
		b = b[:0]
	}
	f.buf = b
	f.tasks++
	var carry uint64
	f.cost, carry = bits.Add64(f.cost, t.Cost, 0)
	f.over = f.over || carry != 0 || f.cost >= 1<<62
}

// sum returns the fingerprint.
func (f *fingerprinter) sum() string {
	b := binary.LittleEndian.AppendUint64(f.buf, f.tasks)
	f.h.Write(b)
	return hex.EncodeToString(f.h.Sum(nil)[:12])
}

// TasksError is returned by [Planner.Plan] when the plan (or shard) would
// hold more tasks than allowed; Tasks is how many it holds.
type TasksError struct {
	Tasks, Max int
}

func (e *TasksError) Error() string {
	return fmt.Sprintf("plan too large: %d tasks, more than the %d allowed", e.Tasks, e.Max)
}

func (e *TasksError) Unwrap() error { return errTooLarge }

// Planner makes the plans of one job: its size before any task is made
// ([Planner.Size]), the whole plan or one shard ([Planner.Plan]), and the
// split into shards summarised ([Planner.Stats]). Every plan streams from
// one walk of the tasks in plan order, holding only those it keeps.
type Planner struct {
	src  *source
	size Size
}

// NewPlanner checks job and resolves its method, pieces and prefix depth
// (a walk that counts prefixes, holding none); it stops with ctx's error
// once ctx is done, as do the planner's walks.
func NewPlanner(ctx context.Context, job Job) (*Planner, error) {
	src, err := prepare(ctx, job)
	if err != nil {
		return nil, err
	}
	sz := Size{Method: src.job.Method, Depth: src.depth, Tasks: src.tasks}
	sz.Sweep = len(src.seeds) == 1 && src.seeds[0].kind == board.Sweep
	if src.join {
		sz.Tasks = joinTaskCount(job.N)
	} else if src.job.Every || src.job.Piece == board.Rook {
		k := 0
		for _, sd := range src.seeds {
			k += countPrefixes(src.w, job.N, sd, sd.depth(src.depth))
		}
		sz.Tasks = k
	}
	if src.w.err != nil {
		return nil, src.w.err
	}
	return &Planner{src: src, size: sz}, nil
}

// Size returns the size of the plan, known before any task is made.
func (pl *Planner) Size() Size { return pl.size }

// MakeShard plans shard i (0-based) of m of job ([Planner.Plan] without a
// bound).
func MakeShard(ctx context.Context, job Job, i, m int) (*Plan, error) {
	pl, err := NewPlanner(ctx, job)
	if err != nil {
		return nil, err
	}
	return pl.Plan(i, m, 0)
}

// Plan makes shard i (0-based) of m: the tasks of that shard alone, in
// plan order, with the whole plan's task count, cost and fingerprint.
// Shards are contiguous ranges of the plan order, each of about a 1/m
// share of the estimated cost ([Plan.Split] gives the same split); they
// may be empty when m is near or above the number of tasks. m = 1 is the
// whole plan, made in one walk; a shard walks the plan twice (the first
// sums the costs, the second keeps the shard's tasks and stops after
// them). A plan that would hold more than max tasks (max > 0) holds none
// and is a [*TasksError] saying how many it would hold.
func (pl *Planner) Plan(i, m, max int) (*Plan, error) {
	if !IsShards(i, i, m) {
		return nil, fmt.Errorf("%w: %d/%d (accepted: %s)", ErrShard, i, m, ShardAccepted)
	}
	if err := checkShards(m, pl.size.Tasks); err != nil {
		return nil, err
	}
	if m > 1 {
		ps, err := pl.shards(i, i, m, max)
		if err != nil {
			return nil, err
		}
		return ps[0], nil
	}
	if max > 0 && pl.size.Tasks > max {
		return nil, &TasksError{Tasks: pl.size.Tasks, Max: max}
	}
	src := pl.src
	p := src.plan()
	if pl.size.Tasks > 0 {
		p.Tasks = make([]Task, 0, pl.size.Tasks)
	}
	var err error
	p.AllTasks, p.AllCost, p.fingerprint, err = pl.whole(func(t *Task, tag string) { p.Tasks = append(p.Tasks, src.keep(t, tag)) })
	return p, err
}

// Plans makes shards first..last (0-based, inclusive) of m, as [Planner.Plan]
// makes each, in two walks of the plan for all of them instead of two
// each: a process that counts many shards one after another plans once.
// Plans that would hold more than max tasks in all (max > 0) hold none
// and are a [*TasksError] saying how many they would hold.
func (pl *Planner) Plans(first, last, m, max int) ([]*Plan, error) {
	if !IsShards(first, last, m) {
		return nil, fmt.Errorf("%w: %d-%d/%d (accepted: %s)", ErrShard, first, last, m, RangeAccepted)
	}
	if m == 1 {
		p, err := pl.Plan(0, 1, max)
		if err != nil {
			return nil, err
		}
		return []*Plan{p}, nil
	}
	if err := checkShards(m, pl.size.Tasks); err != nil {
		return nil, err
	}
	return pl.shards(first, last, m, max)
}

// shards makes shards first..last of m > 1 in two walks: the first for
// the whole plan's count, cost and fingerprint, the second keeping the
// range's tasks and stopping after them.
func (pl *Planner) shards(first, last, m, max int) ([]*Plan, error) {
	src := pl.src
	tasks, cost, fp, err := pl.whole(nil)
	if err != nil {
		return nil, err
	}
	plans := make([]*Plan, last-first+1)
	for k := range plans {
		p := src.plan()
		p.Shard, p.Shards = first+k, m
		p.AllTasks, p.AllCost, p.fingerprint = tasks, cost, fp
		plans[k] = p
	}
	kept := 0
	err = pl.eachShard(cost, m, func(t *Task, tag string, s int) bool {
		if s >= first && s <= last {
			if kept++; max <= 0 || kept <= max {
				p := plans[s-first]
				p.Tasks = append(p.Tasks, src.keep(t, tag))
			}
		}
		return s <= last
	})
	if err != nil {
		return nil, err
	}
	if max > 0 && kept > max {
		return nil, &TasksError{Tasks: kept, Max: max}
	}
	return plans, nil
}

// Walk walks the plan in order as split into m shards, holding no more
// than the task at hand: first for what identifies the plan, whose
// fingerprint check (if not nil) sees and may refuse with an error, then
// calling visit with each task (its own copy) and its shard, until visit
// returns an error, which Walk returns. Shards come in order, from 0.
func (pl *Planner) Walk(m int, check func(fingerprint string) error, visit func(t Task, shard int) error) error {
	if err := checkShards(m, pl.size.Tasks); err != nil {
		return err
	}
	_, cost, fp, err := pl.whole(nil)
	if err != nil {
		return err
	}
	if check != nil {
		if err := check(fp); err != nil {
			return err
		}
	}
	var verr error
	err = pl.eachShard(cost, m, func(t *Task, tag string, s int) bool {
		if verr != nil {
			return false // a walk may call once more before it stops
		}
		verr = visit(pl.src.keep(t, tag), s)
		return verr == nil
	})
	if verr != nil {
		return verr
	}
	return err
}

// PlanOf is a plan holding the given tasks of the planner's plan, as
// shard i of m (0 of 1: the whole plan), for a caller that walked them
// itself ([Planner.Walk]) and needs a plan of them alone, to check
// results against or to count: it has the whole plan's task count but
// neither its cost nor its fingerprint.
func (pl *Planner) PlanOf(tasks []Task, i, m int) *Plan {
	p := pl.src.plan()
	p.Tasks, p.Shard, p.Shards, p.AllTasks = tasks, i, m, pl.size.Tasks
	return p
}

// whole walks the plan once for what identifies it: its task count,
// total cost and fingerprint; keep, if set, sees every task too.
func (pl *Planner) whole(keep func(t *Task, tag string)) (tasks int, cost uint64, fingerprint string, err error) {
	src := pl.src
	fp := newFingerprinter(src.plan())
	err = src.each(func(t *Task, tag string) bool {
		fp.add(t, tag)
		if keep != nil {
			keep(t, tag)
		}
		return true
	})
	if err != nil {
		return 0, 0, "", err
	}
	if fp.over {
		return 0, 0, "", fmt.Errorf("%w: n = %d's task costs do not sum in 62 bits", errTooLarge, src.job.N)
	}
	return int(fp.tasks), fp.cost, fp.sum(), nil
}

// eachShard walks the plan (of total cost total) calling visit with each
// task and its shard of m, until visit returns false.
func (pl *Planner) eachShard(total uint64, m int, visit func(t *Task, tag string, shard int) bool) error {
	var before uint64
	return pl.src.each(func(t *Task, tag string) bool {
		s := shardOf(before, t.Cost, total, m)
		before += t.Cost
		return visit(t, tag, s)
	})
}

// minShardCap is how many shards any plan may be split into, however few
// its tasks (the rest empty).
const minShardCap = 1024

// MaxShards is the most shards a plan of the given number of tasks may be
// split into: one task a shard, or 1024 for smaller plans. More would be
// empty shards alone, and a bound keeps what a split allocates (status
// keeps a line per shard) within the plan's size.
func MaxShards(tasks int) int { return max(tasks, minShardCap) }

// checkShards refuses a split of a plan of the given tasks into m shards
// that [MaxShards] does not allow.
func checkShards(m, tasks int) error {
	switch {
	case m >= 1 && m <= MaxShards(tasks):
	case tasks < minShardCap:
		return fmt.Errorf("%w: %d shards of a plan of %d tasks (accepted: 1..%d, as any plan takes)", ErrShard, m, tasks, minShardCap)
	default:
		return fmt.Errorf("%w: %d shards of a plan of %d tasks (accepted: 1..%d, one task a shard)", ErrShard, m, tasks, MaxShards(tasks))
	}
	return nil
}

// shardOf is the shard of m that a task of the given cost falls in, after
// tasks of cost before, in a plan of cost total: the one whose share of
// the total holds the task's midpoint.
func shardOf(before, cost, total uint64, m int) int {
	if total == 0 {
		return 0
	}
	hi, lo := bits.Mul64(uint64(m), 2*before+cost)
	q, _ := bits.Div64(hi, lo, 2*total)
	return int(q)
}

// Size is what a plan holds, known before any of its tasks is made.
type Size struct {
	Method Method // the method resolved ([Auto] made concrete)
	Tasks  int    // the whole plan's tasks
	Depth  int    // rows the prefixes fix (prefix methods)
	Sweep  bool   // the board is counted by the row sweep (knights), whose memory the engine sizes
}

// Stats summarises a plan and its split into shards.
type Stats struct {
	Size
	Cost        uint64 // the whole plan's estimated cost
	Fingerprint string
	// Shards is the number of shards; the least and most tasks and cost
	// in one shard, and how many are empty.
	Shards             int
	MinTasks, MaxTasks int
	MinCost, MaxCost   uint64
	Empty              int
}

// Stats walks the plan twice (once for one shard), holding no task, and
// describes its split into m shards.
func (pl *Planner) Stats(m int) (Stats, error) {
	if err := checkShards(m, pl.size.Tasks); err != nil {
		return Stats{}, err
	}
	st := Stats{Size: pl.size, Shards: m}
	var err error
	if st.Tasks, st.Cost, st.Fingerprint, err = pl.whole(nil); err != nil {
		return Stats{}, err
	}
	if m == 1 { // the one shard is the whole plan
		st.MinTasks, st.MaxTasks, st.MinCost, st.MaxCost = st.Tasks, st.Tasks, st.Cost, st.Cost
		if st.Tasks == 0 {
			st.Empty = 1
		}
		return st, nil
	}
	// Shards are contiguous: one running shard's sums at a time.
	cur, tasks, cost := 0, 0, uint64(0)
	st.MinTasks, st.MinCost = int(^uint(0)>>1), ^uint64(0)
	seen := 0
	flush := func() {
		st.MinTasks, st.MaxTasks = min(st.MinTasks, tasks), max(st.MaxTasks, tasks)
		st.MinCost, st.MaxCost = min(st.MinCost, cost), max(st.MaxCost, cost)
		seen++
	}
	err = pl.eachShard(st.Cost, m, func(t *Task, _ string, s int) bool {
		if s != cur {
			if tasks > 0 {
				flush()
			}
			cur, tasks, cost = s, 0, 0
		}
		tasks++
		cost += t.Cost
		return true
	})
	if err != nil {
		return Stats{}, err
	}
	if st.Tasks > 0 {
		flush()
	}
	st.Empty = m - seen
	if st.Empty > 0 || st.Tasks == 0 {
		st.MinTasks, st.MinCost = 0, 0
	}
	return st, nil
}

// Sample returns up to k of the plan's tasks, each drawn with the same
// chance, in a random order that depends only on the plan and seed (one
// walk, holding the sample alone), and the whole plan's total cost.
func (pl *Planner) Sample(k int, seed uint64) ([]Task, uint64, error) {
	src := pl.src
	if k <= 0 {
		return nil, 0, nil
	}
	// Each task is kept when its hash falls below a threshold that keeps
	// about k of them; a task's hash is also its place in the order.
	total := uint64(max(1, pl.size.Tasks))
	limit := ^uint64(0)
	if uint64(k) < total {
		limit = uint64(float64(k) / float64(total) * (1 << 63) * 2)
	}
	type drawn struct {
		key uint64
		t   Task
	}
	var keep []drawn
	var cost uint64
	index := uint64(0)
	err := src.each(func(t *Task, tag string) bool {
		key := mix(seed ^ mix(index))
		index++
		cost += t.Cost
		if key <= limit {
			keep = append(keep, drawn{key, src.keep(t, tag)})
		}
		return true
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(keep, func(a, b drawn) int { return cmp.Compare(a.key, b.key) })
	out := make([]Task, 0, min(k, len(keep)))
	for _, d := range keep[:min(k, len(keep))] {
		out = append(out, d.t)
	}
	return out, cost, nil
}

// mix is SplitMix64's finaliser: a bijection that scatters its input.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// joinTaskCount is the number of tasks of the join's plan of an n×n board,
// by Burnside's lemma over the maps that keep the west/east cut: the
// mirror (E to its complement) and, where the plan uses it, the up-down
// flip (E to its reverse); plus the 2n symmetric searches (2 for n = 0).
func joinTaskCount(n int) int {
	sym := 2 * uint64(n)
	if n == 0 {
		sym = 2
	}
	if board.JoinMiddle(n) == 2 {
		// One task per set of east rows (JoinPairs).
		return int(binomial(n, board.JoinSide(n)) + sym)
	}
	h := n / 2
	// Orbits of h-subsets of 2h rows under complement and reversal (the
	// rows in h pairs r, 2h-1-r): C(2h, h) fixed by the identity, none by
	// the complement, C(h, h/2) by the reversal (whole pairs, h even), 2^h
	// by both (one row of each pair).
	full := binomial(2*h, h) + uint64(1)<<uint(h)
	if h%2 == 0 {
		full += binomial(h, h/2)
	}
	full /= 4
	if h == 0 {
		full = 1 // the empty set, which the complement fixes too
	}
	k := full
	if n%2 == 1 {
		// Each middle row a < h pairs with n-1-a: the mirror alone, which
		// fixes no set (C(2h, h)/2 orbits); the centre row has both maps.
		k += uint64(h) * (binomial(2*h, h) / 2)
	}
	return int(k + sym)
}

// joinCoster computes the join's cost estimates (see [joinCost]) with
// tables: per-half placements from the pairs of rows d apart, counted by
// popcounts.
type joinCoster struct {
	n, h  int
	shift uint // the costs' scale: 64·2^shift units of work
	fact  float64
	pair  [MaxN / 2][MaxN/2 + 1]float64 // pair[d][k]: k pairs of rows d apart
	mid   [MaxN/2 + 1]float64           // mid[k]: k rows within h of the middle queen
}

func newJoinCoster(n int) *joinCoster {
	h := board.JoinSide(n)
	jc := &joinCoster{n: n, h: h, fact: 1, shift: uint(4 * max(0, n-22))}
	for i := 2; i <= h; i++ {
		jc.fact *= float64(i)
	}
	for d := 1; d < h; d++ {
		f := 1 - 2*float64(h-d)/float64(h*(h-1))
		jc.pair[d][0] = 1
		for k := 1; k <= h; k++ {
			jc.pair[d][k] = jc.pair[d][k-1] * f
		}
	}
	jc.mid[0] = 1
	for k := 1; k <= h; k++ {
		jc.mid[k] = jc.mid[k-1] * (1 - 1/float64(h))
	}
	return jc
}

// half estimates how many ways h queens fit in h columns, one in each of
// the given rows (see [halfPlacements]).
func (jc *joinCoster) half(rows uint64, mid int) float64 {
	p := jc.fact
	for d := 1; d < jc.h; d++ {
		p *= jc.pair[d][bits.OnesCount64(rows&(rows>>uint(d)))]
	}
	if mid >= 0 && jc.h > 0 {
		lo := max(0, mid-jc.h)
		near := below(mid+jc.h+1) &^ below(lo)
		p *= jc.mid[bits.OnesCount64(rows&near)]
	}
	return p
}

// cost is a join task's cost estimate: the product of its halves'
// placements, in units of 64·2^shift pairs: the plan's total grows about
// 2^4 per n, and the shift keeps it near 2^48 past n = 22 (n = 16: 2^27,
// 22: 2^49, 25: 2^48), well within the 62 bits the planner sums in.
func (jc *joinCoster) cost(east, west uint64, mid int) uint64 {
	c := jc.half(east, mid) * jc.half(west, mid) / float64(uint64(64)<<jc.shift)
	if c < 1 {
		return 1
	}
	return uint64(c + 0.5)
}

// costPairs is the cost estimate of a task of a board with two middle
// columns (JoinPairs): each way of the middle queens costs about the
// product of its halves' placements, estimated for all alike from the
// east rows and the rows left after the outermost two, times the ways
// (those counted in this task: a < b, a + b ≤ n-1, b ≥ a+2).
func (jc *joinCoster) costPairs(east uint64) uint64 {
	rest := below(jc.n) &^ east
	ways := 0
	for x := rest; x != 0; x &= x - 1 {
		a := bits.TrailingZeros64(x)
		ways += bits.OnesCount64(rest &^ below(a+2) &^ ^below(jc.n-a))
	}
	inner := rest &^ (rest & -rest) &^ (1 << uint(63-bits.LeadingZeros64(rest)))
	c := jc.half(east, -1) * jc.half(inner, -1) * float64(ways) / float64(uint64(64)<<jc.shift)
	if c < 1 {
		return 1
	}
	return uint64(c + 0.5)
}

// Draw is a reproducible pseudo-random 64-bit value for index under seed:
// the same on every machine, for samples and audits.
func Draw(index, seed uint64) uint64 { return mix(seed ^ mix(index)) }

// CountWords is how many 64-bit words an exact count takes: 320 bits,
// room for any count on a board of at most MaxN rows (64 rooks make
// 64! < 2^297).
const CountWords = wide.Words

// Bound is the most solutions task t of an n×n board can stand for, as
// CountWords words, least significant first: its weight (at most 8 for a
// class) times the ways to fill its free rows, one queen per free column
// ((n - prefix)!), or for a join task the ways to fill both halves
// (h!·h!, twice that where its pairs are weighted by their long-diagonal
// queens, see JoinLong). A count above it is impossible: a forged or
// damaged line.
func Bound(n int, t *Task) [CountWords]uint64 {
	w := t.Weight
	if t.Kind == board.Classify || t.Kind == board.PointSymmetric || t.Kind == board.Rot90Symmetric {
		w = 8 // a class of up to 8 solutions per completion
	}
	b := [CountWords]uint64{max(w, 1)}
	mul := func(k uint64) {
		var carry uint64
		for i := range b {
			hi, lo := bits.Mul64(b[i], k)
			var c uint64
			b[i], c = bits.Add64(lo, carry, 0)
			carry = hi + c
		}
		if carry != 0 { // never for n ≤ MaxN; saturate to stay a bound
			for i := range b {
				b[i] = ^uint64(0)
			}
		}
	}
	if t.Kind == board.Halves {
		if board.JoinMiddle(n) == 2 {
			// Each way of the middle queens (JoinPairs).
			mul(binomial(n-board.JoinSide(n), 2))
		}
		for k := 2; k <= board.JoinSide(n); k++ {
			mul(uint64(k))
			mul(uint64(k))
		}
		if board.JoinLong(n) {
			mul(2)
		}
		return b
	}
	for k := 2; k <= n-len(t.Prefix); k++ {
		mul(uint64(k))
	}
	return b
}
