package engine

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// hostDevice is a Device that runs the device kernels' Go twin.
type hostDevice struct{ launches int }

func (d *hostDevice) Name() string { return "host" }
func (d *hostDevice) Search(_ context.Context, b *Batch) error {
	d.launches++
	SearchHost(b)
	return nil
}

// TestDeviceTasks cuts every task of the mirror and sym plans of n = 1..15
// into starts, counts them with the device kernels' twin, and checks each
// task's result against the CPU's, field for field (nodes included), so
// that a journal or shard file does not tell where a task was counted.
func TestDeviceTasks(t *testing.T) {
	maxN := 15
	if testing.Short() {
		maxN = 13
	}
	for n := 1; n <= maxN; n++ {
		for _, m := range []partition.Method{partition.Mirror, partition.Sym} {
			plan, err := partition.Make(partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for i := range plan.Tasks {
				var b Batch
				b.reset(n)
				got, cut := b.add(plan, i)
				if cut {
					SearchHost(&b)
					rs := b.results(plan)
					require.Len(t, rs, 1)
					got = rs[0]
				}
				want := runTask(plan, &plan.Tasks[i], nil)
				want.Task = i
				require.Equal(t, want, got, "n=%d %s task %s (cut %v)", n, m, plan.Tasks[i].ID, cut)
			}
		}
	}
}

// TestDeviceRun counts whole boards with devices beside CPU workers and
// alone, against the published counts.
func TestDeviceRun(t *testing.T) {
	for n := 0; n <= 14; n++ {
		for _, m := range []partition.Method{partition.Mirror, partition.Sym} {
			plan, err := partition.Make(partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for _, workers := range []int{-1, 2} {
				dev := &hostDevice{}
				var results int
				c, err := Run(context.Background(), plan, Options{Workers: workers, Devices: []Device{dev}, OnResult: func(Result) { results++ }})
				require.NoError(t, err)
				assert.Equal(t, Uint128{Lo: known.Total[n]}, c.Total, "n=%d %s workers %d", n, m, workers)
				assert.Equal(t, len(plan.Tasks), results, "n=%d %s: one result a task", n, m)
				if m == partition.Sym {
					assert.Equal(t, Uint128{Lo: known.Unique[n]}, c.Unique, "n=%d unique", n)
				}
			}
		}
	}
	plan, err := partition.Make(partition.Job{N: 12, Method: partition.Join})
	require.NoError(t, err)
	_, err = Run(context.Background(), plan, Options{Workers: -1, Devices: []Device{&hostDevice{}}})
	assert.ErrorIs(t, err, ErrDevice)
}
