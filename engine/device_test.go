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
	searchHost(b)
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
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for i := range plan.Tasks {
				var b Batch
				b.reset(n)
				got, cut := b.add(plan, i)
				if cut {
					searchHost(&b)
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
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for _, workers := range []int{-1, 2} {
				dev := &hostDevice{}
				var results int
				c, err := Run(context.Background(), plan, Options{Workers: workers, Devices: []Device{dev}, OnResult: func(Result) { results++ }})
				require.NoError(t, err)
				assert.Equal(t, UintOf(known.Total[n]), c.Total, "n=%d %s workers %d", n, m, workers)
				assert.Equal(t, len(plan.Tasks), results, "n=%d %s: one result a task", n, m)
				if m == partition.Sym {
					assert.Equal(t, UintOf(known.Unique[n]), c.Unique, "n=%d unique", n)
				}
			}
		}
	}
	plan, err := partition.Make(context.Background(), partition.Job{N: 12, Method: partition.Join})
	require.NoError(t, err)
	_, err = Run(context.Background(), plan, Options{Workers: -1, Devices: []Device{&hostDevice{}}})
	assert.ErrorIs(t, err, ErrDevice)
}

// searchHost is the device kernels in Go, on the host: what a device
// computes for a batch, start by start, with walkGo and nextGo; the tests
// check it against the CPU's tasks.
func searchHost(b *Batch) {
	b.Out = append(b.Out[:0], make([]uint64, 5*b.Len())...)
	for j := range b.Cols {
		o := b.Out[5*j : 5*j+5 : 5*j+5]
		s := start{Row: b.Row, Cols: b.Cols[j], LD: b.LD[j], RD: b.RD[j]}
		mode := b.Mode[j]
		if mode&3 == ModeWalk {
			o[0], o[4] = walkGo(s, b.Posib[j])
			continue
		}
		var bs bannedSearch
		bs.n = b.N
		ban := (mode >> 8) * 64
		copy(bs.ban[:], b.Bans[ban:ban+64])
		for r := 0; r < s.Row; r++ {
			bs.board[r&63] = 1 << ((b.Path[j] >> (8 * r)) & 0xff)
		}
		if mode&3 == ModeBanned {
			bs.weight = 1
		}
		bs.flip = mode&4 != 0
		bs.d, bs.posib = 1, b.Posib[j]
		bs.lv[1] = bannedLevel{cols: s.Cols, dls: s.LD << 1, drs: s.RD >> 1, row: uint64(s.Row)}
		for bs.nextGo() {
			bs.leaf()
		}
		o[0], o[1], o[2], o[3], o[4] = bs.r.Total, bs.r.Unique, bs.r.PointSym, bs.r.Rot90Sym, bs.nodes
	}
}
