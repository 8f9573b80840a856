package engine

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/partition"
)

// The device does no more matching work than the CPU: the same tasks'
// item-blocks (items matched against a block, summed over the blocks)
// on the device's path and on the CPU's, at the same block size.

// workSink is a pairSink that matches nothing: it plans each pair of
// sides the CPU's join hands it as the CPU's match plans them (oriented
// by matchCost, cut by the sieve, split by all the extra bits) and adds
// up their item-blocks at blocks of block patterns.
type workSink struct {
	block      int
	itemBlocks int64
}

func (w *workSink) failed() bool { return false }

func (w *workSink) match(js *joinScratch, sv sieve, east, west []uint64, chunks int) uint64 {
	trans, items := east, west
	if matchCost(len(west), len(east)) < matchCost(len(east), len(west)) {
		trans, items = west, east
	}
	if len(trans) == 0 || len(items) == 0 {
		return 0
	}
	if js.buckets == nil {
		js.buckets = new(buckets)
	}
	b := js.buckets
	if !b.plan(sv, trans, items, chunks, extraBits) {
		w.itemBlocks += int64((len(trans)+w.block-1)/w.block) * int64(len(items))
		return 0
	}
	w.itemBlocks += b.itemBlocks(sv, w.block)
	return 0
}

// itemBlocks is the items b's planned sides match against blocks of
// block patterns, summed over the blocks, as buckets.match cuts them
// (blocks within a bucket, each skipping the items' sub-buckets that
// hold an extra bit all its patterns hold; buckets of weight 0 not
// matched).
func (b *buckets) itemBlocks(sv sieve, block int) int64 {
	shift, subs := b.shift, 1<<b.shift
	var s int64
	for v := uint8(0); ; v = (v - b.best) & b.best {
		sub := b.startT[int(v)<<shift:][:subs+1]
		rest := b.best &^ v
		for p := sub[0]; p < sub[subs]; p += block {
			and := blockAnd(sub, p, min(block, sub[subs]-p))
			for u := rest; ; u = (u - 1) & rest {
				if !sv.long || longWeight(v, u) != 0 {
					iu := b.startI[int(u)<<shift:][:subs+1]
					for e := range subs {
						if e&and == 0 {
							s += int64(iu[e+1] - iu[e])
						}
					}
				}
				if u == 0 {
					break
				}
			}
		}
		if v == b.best {
			break
		}
	}
	return s
}

// workDevice is a GPU's join that lists (the listing kernel's twin) and
// matches nothing: the engine's profile counts its item-blocks.
type workDevice struct{}

func (workDevice) Name() string { return "work" }
func (workDevice) Traits() backend.Traits {
	return backend.Traits{MaxGroup: 1024, ComputeUnits: 132, Memory: 80 << 30, MaxAlloc: 20 << 30}
}
func (workDevice) ListHalves(_ context.Context, b *backend.JoinBatch) error {
	listTwin(b)
	return nil
}
func (workDevice) Join(_ context.Context, b *backend.JoinBatch) error {
	b.Out = append(b.Out[:0], make([]uint64, b.Blocks())...)
	return nil
}

// TestDeviceWorkParity counts the item-blocks of n = 22's shard 100/512
// (and 300/512 and 3/128 in the long run, shards a review of the device's
// work measured; NQUEENS_PARITY_SHARD=I/M adds one, as 6/32,
// device-check.sh's sweep, a minute and a half) on a device's path, the GPU's way (listed on the device,
// planned from its counts, jobs cut) at blocks of 512 patterns, and on
// the CPU's (its listing and its match's plan, blocks of 512, its own),
// and checks that the device's are within 3% of the CPU's.
func TestDeviceWorkParity(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: listing a shard of n = 22 twice takes seconds")
	}
	shards := [][2]int{{100, 512}}
	if long.Run() {
		shards = append(shards, [2]int{300, 512}, [2]int{3, 128})
	}
	if s := os.Getenv("NQUEENS_PARITY_SHARD"); s != "" {
		var i, m int
		_, err := fmt.Sscanf(s, "%d/%d", &i, &m)
		require.NoError(t, err, "NQUEENS_PARITY_SHARD=%s: I/M", s)
		shards = append(shards, [2]int{i, m})
	}
	for _, sh := range shards {
		plan, err := partition.MakeShard(context.Background(), partition.Job{N: 22, Method: partition.Join}, sh[0], sh[1])
		require.NoError(t, err)
		var prof JoinProfile
		_, err = Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{workDevice{}},
			Tuning: backend.Knobs{Block: blockPatterns, Hosts: 1}, Profile: &prof})
		require.NoError(t, err)

		s, err := NewSampler(plan, 0)
		require.NoError(t, err)
		sink := &workSink{block: blockPatterns}
		s.js.sink = sink
		for i := range plan.Tasks {
			if plan.Tasks[i].Kind == board.Halves {
				_, err := s.Count(i)
				require.NoError(t, err)
			}
		}
		ratio := float64(prof.ItemBlocks) / float64(sink.itemBlocks)
		t.Logf("n = 22 shard %d/%d: %d tasks, %d patterns listed, item-blocks at blocks of %d: device %d, CPU %d (%.4f×); the host's work for the device (quarter lists from a cold cache, their pairing, the sieve's plans) %.2f s on one goroutine (%.3g ns a pattern)",
			sh[0], sh[1], len(plan.Tasks), prof.Patterns, blockPatterns, prof.ItemBlocks, sink.itemBlocks, ratio,
			(prof.List + prof.Sort).Seconds(), (prof.List+prof.Sort).Seconds()/float64(prof.Patterns)*1e9)
		assert.InDelta(t, 1, ratio, 0.03, "shard %d/%d: the device's item-blocks against the CPU's", sh[0], sh[1])
	}
}
