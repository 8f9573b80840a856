package partition

import (
	"context"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/board"
)

// This file is the prefix walker: the seeds a prefix method starts from,
// the depth that gives enough tasks, and the walk over the boards of the
// first rows that makes a task of each prefix with its cost estimate.

// seed is a family of tasks: a fixed prefix, the columns allowed in the rows
// after it up to the family's restricted rows, and how its completions count.
type seed struct {
	prefix []uint8
	allow  []uint64 // allow[i]: columns allowed in row len(prefix)+i (then all)
	kind   board.Kind
	weight uint64
	bans   *board.Bans
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
type position struct {
	n     int
	row   int
	rules board.Rules
	a     board.Attacks
}

func newBoard(n int, r board.Rules) position {
	return position{n: n, rules: r, a: r.Start(n)}
}

func (b position) free(ban *board.Bans) uint64 {
	f := b.a.Free()
	if b.row < MaxN {
		f &^= ban[b.row]
	}
	return f
}

func (b position) place(c uint8) position {
	return position{n: b.n, row: b.row + 1, rules: b.rules, a: b.rules.Place(b.n, b.a, uint64(1)<<c)}
}

// start places the seed's prefix; ok is false when its queens attack each
// other or a banned square.
func (s seed) start(n int, r board.Rules) (b position, ok bool) {
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
	rules board.Rules // the pieces' attacks
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
func prefixes(w *walker, n int, s seed, depth int, visit func(b position, prefix []uint8)) {
	b, ok := s.start(n, w.rules)
	if !ok {
		return
	}
	prefix := append([]uint8(nil), s.prefix...)
	var rec func(b position)
	rec = func(b position) {
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
	prefixes(w, n, s, depth, func(position, []uint8) { k++ })
	return k
}

// estimate is a prefix task's cost: one plus the number of ways to place
// the next two queens, a cheap probe that tracks the size of the subtree
// well enough to order and balance tasks. (The second row's placements are
// counted with a popcount, not made.)
func estimate(b position, ban *board.Bans) uint64 {
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
