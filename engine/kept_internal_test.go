package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/partition"
)

// TestKeptReused: shards of one board, whose plans differ in size (and so
// in the cache budget their memory limit leaves), share one quarter cache
// and their workers' buffers; another board gets its own.
func TestKeptBuffersReused(t *testing.T) {
	ctx := context.Background()
	var keep KeptBuffers
	var first *quarterCache
	for _, n := range []int{15, 15, 16} {
		pl, err := partition.NewPlanner(ctx, partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		ps, err := pl.Plans(0, 2, 3, 0)
		require.NoError(t, err)
		for _, p := range ps {
			_, err := Run(ctx, p, Options{Workers: 2, Keep: &keep})
			require.NoError(t, err)
			switch {
			case first == nil:
				first = keep.cache
			case n == 15:
				assert.Same(t, first, keep.cache, "n = %d shard %d: the cache kept", n, p.Shard)
			default:
				assert.NotSame(t, first, keep.cache, "n = %d: a cache of its own", n)
			}
			// Each worker's buffers are kept (one worker may finish before
			// the other starts and hand it its own: then one is).
			assert.NotEmpty(t, keep.scratch, "the workers' buffers kept")
			assert.LessOrEqual(t, len(keep.scratch), 2, "no more buffers than workers")
			assert.GreaterOrEqual(t, keep.cache.room.Load(), int64(0))
		}
	}
}
