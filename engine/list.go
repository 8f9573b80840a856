package engine

import (
	"context"
	"math/bits"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/nqueens/nqueens/partition"
)

// Each calls yield with every completion of task t on an n×n board, as the
// column of each row's queen, in lexicographic order; it stops early and
// returns false when yield does. The slice is reused between calls. Weights
// are ignored: use it on plans made with [partition.Job].Every.
func Each(n int, t *partition.Task, yield func(cols []uint8) bool) bool {
	cols := make([]uint8, n)
	s := emptyStart(n)
	for _, c := range t.Prefix {
		cols[s.Row] = c
		s = s.place(1 << c)
	}
	ban := (*[maxRows]uint64)(t.Bans)
	var rec func(s Start) bool
	rec = func(s Start) bool {
		if s.Row == n {
			return yield(cols)
		}
		for free := ^(s.LD | s.Cols | s.RD | ban[s.Row&63]); free != 0; free &= free - 1 {
			bit := free & -free
			cols[s.Row] = uint8(bits.TrailingZeros64(bit))
			if !rec(s.place(bit)) {
				return false
			}
		}
		return true
	}
	return rec(s)
}

// Chunk is the output of one task for [List]: the formatted solutions, one
// record after another, and where each record ends.
type Chunk struct {
	Task int
	Data []byte
	Ends []int
}

// List formats every solution of the tasks in parallel and hands the
// results to write in task order, one task at a time, so the output is
// deterministic however many workers run. At most a few tasks per worker
// are buffered, so memory stays flat however many solutions there are.
// format appends one solution's record to dst. When write returns an error
// (a closed pipe, a reached limit) List stops the workers and returns it.
func List(ctx context.Context, n int, tasks []partition.Task, workers int, format func(dst []byte, cols []uint8) []byte, write func(Chunk) error) error {
	if workers < 1 {
		return ErrWorkers
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	window := 4 * workers
	slots := make([]chan Chunk, len(tasks))
	for i := range slots {
		slots[i] = make(chan Chunk, 1)
	}
	sem := make(chan struct{}, window) // tasks started but not yet written
	var next int
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(workers + 1)
	for range min(workers, len(tasks)) {
		g.Go(func() error {
			for {
				select {
				case sem <- struct{}{}:
				case <-gctx.Done():
					return nil
				}
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(tasks) {
					<-sem
					return nil
				}
				c := Chunk{Task: i}
				Each(n, &tasks[i], func(cols []uint8) bool {
					c.Data = format(c.Data, cols)
					c.Ends = append(c.Ends, len(c.Data))
					return gctx.Err() == nil
				})
				slots[i] <- c
			}
		})
	}
	g.Go(func() error {
		for i := range tasks {
			var c Chunk
			select {
			case c = <-slots[i]:
			case <-gctx.Done():
				return gctx.Err()
			}
			<-sem
			if err := write(c); err != nil {
				return err
			}
		}
		return nil
	})
	return g.Wait()
}
