package engine

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// This file is the engine's side of accelerators for the backtracking
// methods (the join's is joindevice.go). A backend.Searcher searches many
// starts at once with the same two kernels as the CPU, walk (walkGo) and
// the banned search (nextGo, with classification for sym's Classify
// tasks): the same pruning and the same node counts, so that a task's
// result is the same, field for field, wherever it was counted. The host
// cuts each task into starts a few rows deeper (expand, which runs the
// kernels' own loop on the host down to that row and counts its nodes),
// the device counts every start to the end, and the host sums each task's
// starts into its Result. Tasks too small to cut (three rows or fewer left
// below the cut) are counted on the host with the CPU kernels.

// ErrDevice is wrapped by the errors of devices and of plans they cannot
// count.
var ErrDevice = errors.New("device")

// searchBatch is a Searcher's batch (backend.SearchBatch) with what the
// host keeps of it: the task of each start (an index into the batch's
// tasks), where each task's bans are in Bans, what expand counted on the
// host per batch task, and the plan's task indices in the batch.
type searchBatch struct {
	backend.SearchBatch
	task                 []int32
	banIndex             map[*board.Bans]uint32
	hostNodes, hostTotal []uint64
	tasks                []int
}

// CheckDevicePlan returns an error unless a device can count the plan:
// queens by the mirror, sym or join method, without placed queens, n ≤
// 32 (the device kernels' rows). Pieces and placed queens stay on the CPU.
func CheckDevicePlan(plan *partition.Plan) error {
	switch {
	case !plan.Piece.Rules(plan.Torus).Queen():
		return fmt.Errorf("%w: %s boards count on the CPU only", ErrDevice, board.BoardName(plan.Piece, plan.Torus))
	case len(plan.Placed) > 0:
		return fmt.Errorf("%w: placed queens count on the CPU only", ErrDevice)
	case plan.N > backend.MaxN:
		return fmt.Errorf("%w: n = %d is beyond the device kernels' %d rows", ErrDevice, plan.N, backend.MaxN)
	}
	return nil
}

// checkRoles checks that each device runs what the plan's tasks need: the
// join's kernels (a backend.Joiner) for a plan with join tasks, the
// search kernels (a backend.Searcher) for any other.
func checkRoles(plan *partition.Plan, devices []backend.Device) error {
	join := needsMemory(plan)
	for _, d := range devices {
		_, joins := d.(backend.Joiner)
		_, searches := d.(backend.Searcher)
		switch {
		case join && !joins:
			return fmt.Errorf("%w %s: it does not run the join (accepted there: --method sym or mirror)", ErrDevice, d.Name())
		case !join && !searches:
			return fmt.Errorf("%w %s: it runs the join alone (accepted there: --method join)", ErrDevice, d.Name())
		}
	}
	return nil
}

// add cuts task i of the plan into starts appended to b, or counts it on
// the host when it is too small to cut, returning that result and false.
func (b *searchBatch) add(plan *partition.Plan, i int) (Result, bool) {
	t := &plan.Tasks[i]
	n := plan.N
	s := emptyStart(n)
	var path uint64
	for r, c := range t.Prefix {
		if r < 8 {
			path |= uint64(c) << (8 * r)
		}
		s = s.place(1 << c)
	}
	cut := b.Row
	if s.Row >= cut || (t.Kind != board.Count && t.Kind != board.Classify && t.Kind != board.CountBanned) {
		r := runTask(plan, t, nil)
		r.Task = i
		return r, false
	}
	k := int32(len(b.tasks))
	b.tasks = append(b.tasks, i)
	b.hostNodes = append(b.hostNodes, 0)
	b.hostTotal = append(b.hostTotal, 0)
	if t.Kind == board.Count {
		b.expandWalk(s, cut, k)
		return Result{}, true
	}
	if b.banIndex == nil {
		b.banIndex = map[*board.Bans]uint32{}
	}
	ban, ok := b.banIndex[t.Bans]
	if !ok {
		ban = uint32(len(b.Bans) / 64)
		b.Bans = append(b.Bans, t.Bans[:]...)
		b.banIndex[t.Bans] = ban
	}
	mode := uint32(backend.ModeBanned)
	if t.Kind == board.Classify {
		mode = uint32(backend.ModeClassify)
		if t.Flip {
			mode |= 4
		}
	}
	b.expandBanned(t.Bans, s, path, cut, k, mode|ban<<8)
	return Result{}, true
}

// expandWalk is walk's entry and walkGo's loop down to row cut: the
// starts it would push at row cut go to the batch, everything above is
// counted here, node for node as walk counts it.
func (b *searchBatch) expandWalk(s start, cut int, k int32) {
	free := ^s.Cols
	switch {
	case free == 0:
		b.hostTotal[k]++
		return
	case free&(free-1) == 0:
		b.hostTotal[k] += b2u(s.Cols|s.LD|s.RD != full)
		return
	}
	below := ^(s.Cols | s.LD<<1 | s.RD>>1)
	if below == 0 {
		return
	}
	posib := s.Cols | s.LD | s.RD | doomed(below)
	if free2 := free & (free - 1); free2&(free2-1) == 0 {
		c := uint64(bits.OnesCount64(^posib))
		b.hostTotal[k] += c
		b.hostNodes[k] += c
		return
	}
	b.walkLevel(s, posib, cut, k)
}

// walkLevel runs walkGo's loop from s (three rows or more left), whose
// untried squares are posib, down to row cut, where the starts go to the
// batch.
func (b *searchBatch) walkLevel(s start, posib uint64, cut int, k int32) {
	sols, nodes := walkCut(s, posib, cut, func(child start, next uint64) { b.push(child, next, 0, k, uint32(backend.ModeWalk)) })
	b.hostTotal[k] += sols
	b.hostNodes[k] += nodes
}

// expandBanned is walkBanned's entry and its loop (nextGo) down to row
// cut, where the starts go to the batch; path holds the columns of the
// rows above s. No board completes above the cut: it leaves four
// rows.
func (b *searchBatch) expandBanned(ban *board.Bans, s start, path uint64, cut int, k int32, mode uint32) {
	row := s.Row
	if ^s.Cols == 0 || ^s.Cols&(^s.Cols-1) == 0 {
		panic("engine: a banned task cut with fewer than two rows left") // backend.CutRow leaves four rows
	}
	below := ^(s.Cols | s.LD<<1 | s.RD>>1 | ban[(row+1)&63])
	if below == 0 {
		return
	}
	var bs bannedSearch
	bs.init(b.N, ban)
	bs.cut = uint64(cut)
	bs.d, bs.posib = 1, s.Cols|s.LD|s.RD|ban[row&63]|doomed(below)
	bs.lv[1] = bannedLevel{cols: s.Cols, dls: s.LD << 1, drs: s.RD >> 1, row: uint64(row)}
	for bs.nextGo() {
		if !bs.atCut {
			panic("engine: a banned task completed above the cut") // backend.CutRow leaves four rows
		}
		p := path
		for r := row; r < cut; r++ {
			p |= uint64(bits.TrailingZeros64(bs.board[r&63])) << (8 * r)
		}
		b.push(bs.edge, bs.edgePosib, p, k, mode)
	}
	b.hostNodes[k] += bs.nodes
}

// push appends a start for the device.
func (b *searchBatch) push(s start, posib uint64, path uint64, k int32, mode uint32) {
	b.Cols = append(b.Cols, s.Cols)
	b.LD = append(b.LD, s.LD)
	b.RD = append(b.RD, s.RD)
	b.Posib = append(b.Posib, posib)
	b.Mode = append(b.Mode, mode)
	b.Path = append(b.Path, path)
	b.task = append(b.task, k)
}

// reset empties b for the next batch of the n×n board, keeping its
// arrays.
func (b *searchBatch) reset(n int) {
	b.N = n
	b.Bans, b.Cols, b.LD, b.RD, b.Posib = b.Bans[:0], b.Cols[:0], b.LD[:0], b.RD[:0], b.Posib[:0]
	b.Row = backend.CutRow(n)
	b.Mode, b.Path, b.Out, b.task = b.Mode[:0], b.Path[:0], b.Out[:0], b.task[:0]
	b.hostNodes, b.hostTotal, b.tasks = b.hostNodes[:0], b.hostTotal[:0], b.tasks[:0]
	clear(b.banIndex)
}

// results sums the device's counts of each start, and what the host
// counted, into one Result per task of the batch.
func (b *searchBatch) results(plan *partition.Plan) []Result {
	rs := make([]Result, len(b.tasks))
	for k := range b.tasks {
		rs[k] = Result{Task: b.tasks[k], Total: b.hostTotal[k], Nodes: b.hostNodes[k]}
	}
	for j, k := range b.task {
		o := b.Out[5*j : 5*j+5 : 5*j+5]
		r := &rs[k]
		r.Total += o[0]
		r.Unique += o[1]
		r.PointSym += o[2]
		r.Rot90Sym += o[3]
		r.Nodes += o[4]
	}
	for k := range rs {
		if t := &plan.Tasks[b.tasks[k]]; t.Kind != board.Classify {
			rs[k].Total *= t.Weight
		}
	}
	return rs
}

// batchStarts is how many starts a device batch gathers before a launch
// (more when one task cuts into more): enough work-items to fill a large
// GPU, about 90 MB of arrays.
const batchStarts = 1 << 20

// runDevice feeds dev from the run's queue (order, next) until it is
// empty or ctx is done: it takes tasks until a batch holds batchStarts
// starts, launches it, and reports each task's result.
func runDevice(ctx context.Context, dev backend.Searcher, plan *partition.Plan, order []int, next *atomic.Int64, report func(Result)) error {
	var b searchBatch
	for ctx.Err() == nil {
		b.reset(plan.N)
		empty := false
		for b.Len() < batchStarts {
			k := int(next.Add(1) - 1)
			if k >= len(order) {
				empty = true
				break
			}
			if r, cut := b.add(plan, order[k]); !cut {
				report(r)
			}
		}
		if b.Len() > 0 {
			if err := dev.Search(ctx, &b.SearchBatch); err != nil {
				if ctx.Err() != nil {
					return nil // stopped: the batch's tasks are counted again on resume
				}
				return fmt.Errorf("%w %s: %w", ErrDevice, dev.Name(), err)
			}
		} else {
			b.Out = b.Out[:0]
		}
		for _, r := range b.results(plan) {
			report(r)
		}
		if empty {
			return nil
		}
	}
	return nil
}
