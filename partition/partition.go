// Package partition splits an n-queens count into independent tasks.
//
// A [Plan] is a deterministic list of [Task]s: the same n, method and version
// of this package always give the same tasks, with the same IDs, in the same
// order. Checkpoints, shards and merges identify work by those IDs. The
// package decides what is searched (prefixes, symmetry classes, weights,
// cost estimates); it knows nothing about goroutines, which are the engine's.
package partition

import (
	"context"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// MaxN is the largest board a plan can be made for: the kernels use one bit
// of a uint64 per column.
const MaxN = 64

// Version identifies the planning rules. It changes whenever a plan for the
// same n and method would come out different, so stored task IDs from an
// older version are never mistaken for current ones.
const Version = 3

// Method names a way of counting.
type Method string

const (
	// Mirror halves the search by the left-right mirror: the row-0 queen in
	// the left half, weight 2; for odd n the middle column of row 0 is a
	// separate case whose row-1 queen is restricted to the left half.
	Mirror Method = "mirror"
	// Sym searches one representative of each class of solutions under the
	// 8 symmetries of the square and reports unique and symmetric counts too.
	Sym Method = "sym"
	// Join cuts the board into a west and an east half and counts the pairs
	// of halves that share no diagonal, without backtracking whole boards;
	// small searches count the symmetric solutions beside it, and the
	// unique count follows by Burnside's lemma.
	Join Method = "join"
)

// Methods lists the methods a plan can be made for.
var Methods = []Method{Sym, Mirror, Join}

// JoinFrom is the least n for which the join method is faster than sym, on
// one worker or all of them (measured with BenchmarkCount: README, "Speed").
const JoinFrom = 12

// Best returns the fastest method for an n×n board: join from JoinFrom on,
// sym below (and beyond JoinMaxN).
func Best(n int) Method {
	if n >= JoinFrom && n <= JoinMaxN {
		return Join
	}
	return Sym
}

// MaxSolveN is the largest board nqueens.Solve constructs (queens, no
// placed ones): the columns of a board take 8 bytes a row.
const MaxSolveN = 10_000_000

// Auto asks [Make] for the fastest method for the board: [Best](n).
// The empty method means the same.
const Auto Method = "auto"

// Kind tells the engine which kernel a task needs.
type Kind uint8

const (
	// Count tasks count completions; each one stands for Weight solutions.
	// They have no bans.
	Count Kind = iota
	// Classify tasks compare every completion with its images under the 8
	// symmetries: only the least image of a class is counted, weighted by
	// the size of its class (8, 4 or 2). Weight is 1.
	Classify
	// CountBanned tasks count completions that avoid Bans (queens placed
	// in advance); each stands for Weight solutions.
	CountBanned
	// Halves tasks count the pairs of west and east halves of the board
	// that make a solution, for one set of east rows (Rows) and, for odd
	// n, one row of the middle column's queen (Middle); each pair stands
	// for Weight solutions.
	Halves
	// PointSymmetric and Rot90Symmetric tasks count the solutions equal to
	// their 180° (respectively 90°) rotation whose row-0 queen is in
	// column Prefix[0] (no prefix for n = 0). The join method counts them
	// beside its total, which gives the unique count by Burnside's lemma.
	PointSymmetric
	Rot90Symmetric
	// CountPieces tasks count completions under the plan's [Rules] (pieces
	// other than the queen, or the torus); each stands for Weight
	// solutions. They have no bans.
	CountPieces
)

// Bans lists, per row, the squares a method forbids there (bit c = column c).
type Bans [MaxN]uint64

// noBans is shared by every task without symmetry bounds.
var noBans Bans

// Task is an independent piece of a count: the queens of rows
// 0..len(Prefix)-1 are placed, the kernel counts the completions.
type Task struct {
	// ID is stable across runs and unique within a plan. Prefix tasks
	// have their prefix's columns joined by '.' ("3.7.1", "root" for the
	// empty prefix), after a tag for flipped sym regions ("f5:3.1");
	// join tasks name their east rows in hex ("e0f81", after "m6:" for
	// the middle queen's row of odd n); the join's symmetric searches are
	// "p" (180°) or "r" (90°) and the row-0 queen's column ("p0", "r3").
	ID string
	// Weight is how many solutions each completion stands for: 2 for a
	// mirror-halved prefix, up to 8 for a join task standing for its
	// orbit of row sets, 1 where nothing is halved.
	Weight uint64
	// Cost estimates the task's work, in arbitrary units comparable
	// within a plan: use it for progress, ETA and balancing shards.
	Cost uint64
	// Prefix holds the columns of the queens already placed, row by row.
	Prefix []uint8
	// Bans holds the squares the method forbids, shared between tasks.
	Bans *Bans
	// Rows is a Halves task's set of rows whose queen lies in the east half
	// (bit r = row r).
	Rows uint64
	// Kind selects the kernel.
	Kind Kind
	// Flip says the task searches the board upside down (row r of the
	// search is row n-1-r of the board): Classify turns each completion
	// back before comparing it with its images.
	Flip bool
	// Middle is a Halves task's row of the middle column's queen for odd n,
	// -1 otherwise.
	Middle int8
	// (Small fields last: 80 bytes a task; a plan of n = 23 has 4 million.)
}

// Plan is the full, ordered list of tasks for one count.
type Plan struct {
	N      int
	Method Method
	// Piece and Torus are the job's (Piece is never empty).
	Piece Piece
	Torus bool
	// Placed lists the queens every solution holds.
	Placed []Square
	// Depth is the number of rows the task prefixes fix (some may be shorter
	// when a board is tiny).
	Depth int
	// Tasks are the plan's tasks, or those of shard Shard of Shards alone
	// ([MakeShard]), in plan order.
	Tasks         []Task
	Shard, Shards int
	// AllTasks and AllCost are the whole plan's number of tasks and total
	// cost, a shard's or not.
	AllTasks int
	AllCost  uint64
	// fingerprint is the whole plan's (see [Plan.Fingerprint]).
	fingerprint string
}

// Rules returns the attacks of the plan's pieces.
func (p *Plan) Rules() Rules { return p.Piece.Rules(p.Torus) }

// Cost sums the plan's cost estimates.
func (p *Plan) Cost() uint64 {
	var c uint64
	for _, t := range p.Tasks {
		c += t.Cost
	}
	return c
}

// Classes reports whether the plan's results include unique, point- and
// rot90-symmetric counts.
func (p *Plan) Classes() bool { return p.Method.Classes() }

// Classes reports whether the method counts the classes of solutions
// (unique, point- and rot90-symmetric) besides the total: sym and join
// do, mirror does not; [Auto] does wherever it picks one of them (for
// queens without placed ones).
func (m Method) Classes() bool { return m == Sym || m == Join || m == Auto || m == "" }

// DerivesUnique reports whether the plan's unique count is not summed from
// its tasks but derived from the total and the symmetric counts once all
// tasks are counted (engine.Counts.DeriveUnique): the join method's.
func (p *Plan) DerivesUnique() bool { return p.Method == Join }

// Other returns a method independent of m, for checking its counts: sym for
// mirror and join, mirror for sym.
func Other(m Method) Method {
	if m == Sym {
		return Mirror
	}
	return Sym
}

// Job describes a count to plan.
type Job struct {
	N      int
	Method Method
	// Placed lists queens that every solution must contain. Plans with
	// placed queens use the mirror method (halving only when the placement
	// is mirror-symmetric).
	Placed []Square
	// Every asks for a plan that searches every solution, without
	// symmetry, so that its tasks list all solutions in lexicographic order
	// (for listing them): prefixes of two rows, at most n² tasks.
	Every bool
	// Piece is what stands on the board (empty: [Queen]); Torus makes the
	// queens' diagonals wrap around the board (the modular n-queens
	// problem). Pieces other than the queen, and the torus, are counted
	// with the mirror method; Placed then lists pieces of that kind.
	Piece Piece
	Torus bool
}

// ParseMethod returns the method named s: one of [Methods] or [Auto].
func ParseMethod(s string) (Method, error) {
	if Method(s) == Auto {
		return Auto, nil
	}
	if m, ok := named(s, Methods); ok {
		return m, nil
	}
	return "", jobError("Method", "", ErrMethod, func(o func(string, string) string) string {
		return fmt.Sprintf("%s is not a method (accepted: auto, %s)", o("Method", msg.Quote(s)), joinNames(Methods))
	})
}

// named returns the one of all that is called s.
func named[T ~string](s string, all []T) (T, bool) {
	for _, x := range all {
		if string(x) == s {
			return x, true
		}
	}
	return "", false
}

// joinNames lists names, comma-separated.
func joinNames[T ~string](all []T) string {
	names := make([]string, len(all))
	for i, x := range all {
		names[i] = string(x)
	}
	return strings.Join(names, ", ")
}

// Make plans job. The method [Auto] (or none) is [Best](n), or mirror when
// queens are placed or every solution is to be listed.
func Make(job Job) (*Plan, error) { return MakeContext(context.Background(), job) }

// MakeContext is [Make] that stops with ctx's error when ctx is done.
// It holds every task of the plan: [Size] tells how many there are
// before any is made, and [MakeShard] makes one shard's alone.
func MakeContext(ctx context.Context, job Job) (*Plan, error) {
	return MakeShard(ctx, job, 0, 1)
}

// prepare checks job, resolves its method and pieces, and returns the
// source of its tasks (for prefix methods after choosing the depth, a
// walk that counts prefixes and holds none).
func prepare(ctx context.Context, job Job) (*source, error) {
	if job.N < 0 || job.N > MaxN {
		return nil, fmt.Errorf("%w: %d (accepted: 0..%d)", ErrSize, job.N, MaxN)
	}
	piece, err := ParsePiece(string(job.Piece))
	if err != nil {
		return nil, err
	}
	rules := piece.Rules(job.Torus)
	if !rules.Queen() {
		switch {
		case job.Torus && piece != Queen:
			return nil, jobError("Torus", "Piece", ErrPieceMode, func(o func(string, string) string) string {
				return fmt.Sprintf("%s works with queens only (their diagonals wrap around), not with %s", o("Torus", ""), o("Piece", string(piece)))
			})
		case job.Method != "" && job.Method != Auto && job.Method != Mirror:
			what, value := "Piece", string(piece)
			if piece == Queen {
				what, value = "Torus", ""
			}
			return nil, jobError("Method", what, ErrPieceMode, func(o func(string, string) string) string {
				return fmt.Sprintf("%s is counted with %s only (its default), not %s", o(what, value), o("Method", string(Mirror)), o("Method", string(job.Method)))
			})
		case piece == Rook && job.N > MaxRookN:
			return nil, fmt.Errorf("%w: %d rooks (accepted: 0..%d; %d! does not fit in 128 bits)", ErrSize, job.N, MaxRookN, MaxRookN+1)
		}
		job.Method = Mirror
	}
	if job.Method == "" || job.Method == Auto {
		job.Method = Best(job.N)
		if len(job.Placed) > 0 || job.Every {
			job.Method = Mirror
		}
	}
	if len(job.Placed) > 0 {
		job.Placed = canonical(job.Placed)
	}
	job.Piece = piece
	src := &source{job: job, w: &walker{ctx: ctx, rules: rules}}
	switch {
	case job.Method != Mirror && job.Method != Sym && job.Method != Join:
		_, err := ParseMethod(string(job.Method))
		return nil, err
	case job.Method == Join && len(job.Placed) == 0 && !job.Every:
		if job.N > JoinMaxN {
			return nil, fmt.Errorf("%w: %d is too large for the join method (accepted: 0..%d; sym and mirror accept up to %d)", ErrSize, job.N, JoinMaxN, MaxN)
		}
		src.join = true
		return src, nil
	case len(job.Placed) > 0 || job.Every:
		if job.Method != Mirror {
			return nil, jobError("Method", "Placed", ErrPlacedMethod, func(o func(string, string) string) string {
				return fmt.Sprintf("%s works with %s only (its default), not %s", o("Placed", ""), o("Method", string(Mirror)), o("Method", string(job.Method)))
			})
		}
		if err := CheckPlacement(job.N, job.Placed); err != nil {
			return nil, err
		}
		src.seeds = placedSeeds(job.N, job.Placed, !job.Every, rules)
	case job.Method == Mirror:
		src.seeds = mirrorSeeds(job.N)
	default:
		src.seeds = symSeeds(job.N)
	}
	if !rules.Queen() {
		for i := range src.seeds {
			src.seeds[i].kind = CountPieces
		}
	}
	// Listing is one search in order: a few tasks keep its plan small
	// (and quick) at any n.
	src.depth = min(2, job.N)
	if !job.Every && !rules.Rook() { // rooks' tasks are closed forms: two rows suffice
		src.depth, src.tasks = chooseDepth(src.w, job.N, src.seeds)
	}
	if src.w.err != nil {
		return nil, src.w.err
	}
	return src, nil
}

// seed is a family of tasks: a fixed prefix, the columns allowed in the rows
// after it up to the family's restricted rows, and how its completions count.
type seed struct {
	prefix []uint8
	allow  []uint64 // allow[i]: columns allowed in row len(prefix)+i (then all)
	kind   Kind
	weight uint64
	bans   *Bans
	flip   bool
	tag    string // prefixes task IDs, keeping them unique across seeds
}

// depth is the prefix length this seed's tasks get in a plan of the given
// depth. A flipped seed fixes its queen in the last row, not in the prefix,
// so its prefixes are one row shorter: its tasks are then about as large as
// the others'.
func (s seed) depth(d int) int {
	if s.flip && d > 1 {
		return d - 1
	}
	return d
}

// targetTasks is how many tasks a plan aims at: several dozen per worker on
// machines of up to 64 cores for mid-size n, and more as n grows so that one
// task stays short enough for prompt cancellation and fine-grained shards.
func targetTasks(n int) int {
	t := 4096
	for i := 18; i < n && t < 1<<20; i++ {
		t *= 4
	}
	return t
}

// maxDepth bounds the prefix length: deeper prefixes would leave tasks too
// small to be worth scheduling (small boards take well under a millisecond).
func maxDepth(n int) int {
	return max(2, min(7, n-8))
}

// maxTasks bounds a plan's size (about 100 bytes a task in memory): the
// depth stops short of a level that would exceed it.
const maxTasks = 1 << 22

// chooseDepth returns the shallowest prefix depth (at least 2) giving
// targetTasks(n) tasks, or the deepest one below maxTasks when the next
// level would jump past it.
func chooseDepth(w *walker, n int, seeds []seed) (depth, tasks int) {
	target := targetTasks(n)
	count := func(depth int) int {
		total := 0
		for _, s := range seeds {
			total += countPrefixes(w, n, s, s.depth(depth))
		}
		return total
	}
	prev := -1
	for depth = 2; depth < maxDepth(n) && depth < n && w.err == nil; depth++ {
		total := count(depth)
		if total >= target {
			if total > maxTasks && depth > 2 {
				return depth - 1, prev
			}
			return depth, total
		}
		prev = total
	}
	return depth, count(depth)
}

// board tracks the attacks of the pieces placed, in the engine's
// convention.
type board struct {
	n     int
	row   int
	rules Rules
	a     Attacks
}

func newBoard(n int, r Rules) board {
	return board{n: n, rules: r, a: r.Start(n)}
}

func (b board) free(ban *Bans) uint64 {
	f := b.a.Free()
	if b.row < MaxN {
		f &^= ban[b.row]
	}
	return f
}

func (b board) place(c uint8) board {
	return board{n: b.n, row: b.row + 1, rules: b.rules, a: b.rules.Place(b.n, b.a, uint64(1)<<c)}
}

// start places the seed's prefix; ok is false when its queens attack each
// other or a banned square.
func (s seed) start(n int, r Rules) (b board, ok bool) {
	b = newBoard(n, r)
	for _, c := range s.prefix {
		if b.free(s.bans)&(uint64(1)<<c) == 0 {
			return b, false
		}
		b = b.place(c)
	}
	return b, true
}

// allowed is the seed's own restriction on row r.
func (s seed) allowed(r int) uint64 {
	if i := r - len(s.prefix); i >= 0 && i < len(s.allow) {
		return s.allow[i]
	}
	return ^uint64(0)
}

// walker stops prefix walks once its context is done, checking it every
// few thousand prefixes; err is then the context's error.
type walker struct {
	ctx   context.Context
	rules Rules // the pieces' attacks
	steps uint
	err   error
}

// stopped reports whether the walk should end.
func (w *walker) stopped() bool {
	if w.steps++; w.err == nil && w.steps%4096 == 0 {
		w.err = w.ctx.Err()
	}
	return w.err != nil
}

// prefixes calls visit with every prefix the seed gives at the given
// depth, in lexicographic order, and the board it leaves. The prefix slice
// is reused between calls.
func prefixes(w *walker, n int, s seed, depth int, visit func(b board, prefix []uint8)) {
	b, ok := s.start(n, w.rules)
	if !ok {
		return
	}
	prefix := append([]uint8(nil), s.prefix...)
	var rec func(b board)
	rec = func(b board) {
		if w.stopped() {
			return
		}
		if b.row >= depth || b.row >= n {
			visit(b, prefix)
			return
		}
		for f := b.free(s.bans) & s.allowed(b.row); f != 0; f &= f - 1 {
			c := uint8(trailingZeros(f))
			prefix = append(prefix, c)
			rec(b.place(c))
			prefix = prefix[:len(prefix)-1]
		}
	}
	rec(b)
}

// countPrefixes counts the tasks a seed gives at the given depth.
func countPrefixes(w *walker, n int, s seed, depth int) int {
	k := 0
	prefixes(w, n, s, depth, func(board, []uint8) { k++ })
	return k
}

// estimate is a prefix task's cost: one plus the number of ways to place
// the next two queens, a cheap probe that tracks the size of the subtree
// well enough to order and balance tasks. (The second row's placements are
// counted with a popcount, not made.)
func estimate(b board, ban *Bans) uint64 {
	if b.row >= b.n {
		return 1
	}
	total := uint64(1)
	for f := b.free(ban); f != 0; f &= f - 1 {
		next := b.place(uint8(trailingZeros(f)))
		total++
		if next.row < next.n {
			total += uint64(bits.OnesCount64(next.free(ban)))
		}
	}
	return total
}

func taskID(prefix []uint8) string {
	if len(prefix) == 0 {
		return "root"
	}
	var sb strings.Builder
	for i, c := range prefix {
		if i > 0 {
			sb.WriteByte('.')
		}
		sb.WriteString(strconv.Itoa(int(c)))
	}
	return sb.String()
}
