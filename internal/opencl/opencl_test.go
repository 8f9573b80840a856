package opencl

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// requireDevice opens the first device, or skips the test with a note
// where there is none; where NQUEENS_REQUIRE_OPENCL is set (CI, which
// installs pocl) a missing device fails the test instead.
func requireDevice(t *testing.T) *Device {
	t.Helper()
	infos, err := backend.Select("opencl")
	if err != nil {
		if os.Getenv("NQUEENS_REQUIRE_OPENCL") != "" {
			t.Fatalf("NQUEENS_REQUIRE_OPENCL is set but no OpenCL device opens: %v", err)
		}
		t.Skipf("no OpenCL device here (%v); CI runs these tests on pocl", err)
	}
	d, err := Open(infos[0].Detail.(Info))
	require.NoError(t, err)
	t.Cleanup(func() { d.Close() })
	return d
}

// TestList lists the devices; every one has a name.
func TestList(t *testing.T) {
	requireDevice(t)
	infos, err := Devices()
	require.NoError(t, err)
	require.NotEmpty(t, infos)
	for i, d := range infos {
		assert.Equal(t, i, d.Index)
		assert.NotEmpty(t, d.Name)
		assert.Positive(t, d.ComputeUnits)
	}
	_, err = backend.Select("opencl:99")
	assert.ErrorContains(t, err, "no opencl device 99")
}

// TestSearchTasks counts random tasks of mirror and sym plans on the
// device and checks each task's result against the CPU's, field for
// field: total, the class counts and nodes.
func TestSearchTasks(t *testing.T) {
	d := requireDevice(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 4; n <= 16; n++ {
		for _, m := range []partition.Method{partition.Mirror, partition.Sym} {
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			order := rng.Perm(len(plan.Tasks))[:min(len(plan.Tasks), 40)]
			skip := make([]bool, len(plan.Tasks))
			for i := range skip {
				skip[i] = true
			}
			for _, i := range order {
				skip[i] = false
			}
			onCPU := map[int]engine.Result{}
			_, err = engine.Run(context.Background(), plan, engine.Options{Workers: 1, Skip: skip,
				OnResult: func(r engine.Result) { onCPU[r.Task] = r }})
			require.NoError(t, err)
			c, err := engine.Run(context.Background(), plan, engine.Options{Workers: -1, Skip: skip, Devices: []backend.Device{d},
				OnResult: func(r engine.Result) {
					assert.Equal(t, onCPU[r.Task], r, "n=%d %s task %s", n, m, plan.Tasks[r.Task].ID)
				}})
			require.NoError(t, err)
			assert.Equal(t, len(order), c.Tasks, "n=%d %s", n, m)
			assert.Len(t, onCPU, len(order), "n=%d %s", n, m)
		}
	}
}

// TestCounts counts whole boards on the device alone and beside the CPU
// workers: every total and class count against the published ones, n =
// 1..16 (17 and 18 without -short).
func TestCounts(t *testing.T) {
	d := requireDevice(t)
	maxN := 16 // n = 17 and 18 take 50 s on pocl with two cores
	if long.Run() {
		maxN = 18
	}
	for n := 1; n <= maxN; n++ {
		plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Sym})
		require.NoError(t, err)
		workers := -1
		if n%2 == 0 {
			workers = 1 // the device beside a CPU worker
		}
		c, err := engine.Run(context.Background(), plan, engine.Options{Workers: workers, Devices: []backend.Device{d}})
		require.NoError(t, err)
		assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d total", n)
		assert.Equal(t, wide.Of(known.Unique[n]), c.Unique, "n=%d unique", n)
		assert.Equal(t, wide.Of(known.PointSym(n)), c.PointSym, "n=%d point", n)
		assert.Equal(t, wide.Of(known.Rot90Sym[n]), c.Rot90Sym, "n=%d rot90", n)
		if n > 14 {
			continue
		}
		plan, err = partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror})
		require.NoError(t, err)
		c, err = engine.Run(context.Background(), plan, engine.Options{Workers: -1, Devices: []backend.Device{d}})
		require.NoError(t, err)
		assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d mirror", n)
	}
}

// joinOnBoth counts the plan's tasks that skip leaves on the CPU and on
// the device by the join, and checks each task's result against the
// CPU's, field for field (total and nodes); it returns the device's
// counts.
func joinOnBoth(t *testing.T, d *Device, plan *partition.Plan, skip []bool, tune backend.Knobs) engine.Counts {
	t.Helper()
	onCPU := map[int]engine.Result{}
	_, err := engine.Run(context.Background(), plan, engine.Options{Skip: skip, OnResult: func(r engine.Result) { onCPU[r.Task] = r }})
	require.NoError(t, err)
	onDevice := map[int]engine.Result{}
	c, err := engine.Run(context.Background(), plan, engine.Options{Workers: -1, Skip: skip, Devices: []backend.Device{d}, Tuning: tune,
		OnResult: func(r engine.Result) { onDevice[r.Task] = r }})
	require.NoError(t, err)
	require.Equal(t, len(onCPU), len(onDevice), "n=%d: tasks counted", plan.N)
	for i, want := range onCPU {
		if !assert.Equal(t, want, onDevice[i], "n=%d task %s", plan.N, plan.Tasks[i].ID) {
			break
		}
	}
	require.Positive(t, c.Tasks, "n=%d", plan.N)
	return c
}

// gpuWay is the tuning a device that does not run on the CPU resolves to:
// the device lists and sorts the sides, the host cuts large jobs, the
// counts are 32 bits a lane, the table lies in planes of 5-bit chunks.
var gpuWay = backend.Knobs{List: 2, Sort: 2, Cut: 2, Popcount: 32, Layout: 2, Chunk: 5}

// TestJoinTasks counts every task of the join plans of n = 4..16 (18 in
// the long run, 14 with -short) on the device the way a GPU runs
// (gpuWay), and on the CPU, each task's result the same, and the totals
// the published ones.
func TestJoinTasks(t *testing.T) {
	d := requireDevice(t)
	maxN := 16
	switch {
	case long.Run():
		maxN = 18
	case testing.Short():
		maxN = 14
	}
	for n := 4; n <= maxN; n++ {
		plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		c := joinOnBoth(t, d, plan, nil, gpuWay) // the device lists, sorts and cuts, with 32-bit counts: a GPU's way
		assert.Equal(t, len(plan.Tasks), c.Tasks, "n=%d", n)
		assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d total", n)
		assert.Equal(t, wide.Of(known.PointSym(n)), c.PointSym, "n=%d point", n)
	}
}

// TestJoinSampled counts sampled tasks of n = 20..23 (20 alone with
// -short; the largest of n = 20 and 21 among them too) on the device and on the CPU, each task's result
// the same: patterns past 32 bits, two table halves, buckets of
// thousands.
func TestJoinSampled(t *testing.T) {
	d := requireDevice(t)
	rng := rand.New(rand.NewPCG(3, 4))
	maxN := 23
	if testing.Short() {
		maxN = 20
	}
	for n := 20; n <= maxN; n++ {
		plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		skip := make([]bool, len(plan.Tasks))
		for i := range skip {
			skip[i] = true
		}
		for _, i := range rng.Perm(len(plan.Tasks))[:24-n] {
			skip[i] = false
		}
		largest := 0
		for i, task := range plan.Tasks {
			if task.Cost > plan.Tasks[largest].Cost {
				largest = i
			}
		}
		if n <= 21 {
			skip[largest] = false
		}
		joinOnBoth(t, d, plan, skip, backend.Knobs{}) // the host lists and sorts (pocl runs on the CPU)
		joinOnBoth(t, d, plan, skip, gpuWay)          // the device lists and sorts
	}
}

// TestJoinTunings counts sampled tasks of n = 20 on the device under
// tunings at the knobs' bounds and between (blocks of one to sixteen
// words, work-groups from 32 to 1024, several items a step, small
// batches, 32-bit counts, 5- and 7-bit chunks, planar tables; the host listing with the
// device's sort; two of them with -short), each task's result the CPU's.
func TestJoinTunings(t *testing.T) {
	d := requireDevice(t)
	plan, err := partition.Make(context.Background(), partition.Job{N: 20, Method: partition.Join})
	require.NoError(t, err)
	skip := make([]bool, len(plan.Tasks))
	for i := range skip {
		skip[i] = i%4001 != 7
	}
	tunings := []string{"block=32,group=32,chunk=7", "block=64,group=96,items=3,popcount=32,layout=2", "block=128,group=1024,items=8,popcount=32,chunk=7,layout=2",
		"block=32,group=64,chunk=5,layout=2", "block=512,group=128,items=2,chunk=5,popcount=32", "block=512,group=256,items=2,batch=65536,list=1,sort=2,popcount=32,layout=2",
		"block=256,group=64,batch=65536,hosts=3,list=2,cut=2,chunk=5,layout=2"}
	if testing.Short() {
		tunings = tunings[3:]
	}
	for _, tune := range tunings {
		tn, err := backend.ParseKnobs(tune)
		require.NoError(t, err)
		if tn.Group > d.Info().MaxGroup {
			continue
		}
		joinOnBoth(t, d, plan, skip, tn)
	}
}

// TestPinnedStaging counts every task of the join plans of n = 12..14 (16
// in the long run) through pinned staging buffers
// (NQUEENS_OPENCL_PINNED=1: on a GPU the default, here forced on pocl),
// the way a GPU runs and with the host listing and sorting, small batches
// so that the staging buffers are reused and grown, each task's result
// the CPU's.
func TestPinnedStaging(t *testing.T) {
	t.Setenv("NQUEENS_OPENCL_PINNED", "1")
	d := requireDevice(t)
	require.True(t, d.pinned)
	maxN := 14
	if long.Run() {
		maxN = 16
	}
	for n := 12; n <= maxN; n++ {
		plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		gpu := gpuWay
		gpu.Batch, gpu.Hosts = 1<<16, 3
		for _, tune := range []backend.Knobs{gpu, {Batch: 1 << 16, Hosts: 2}} {
			c := joinOnBoth(t, d, plan, nil, tune)
			assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d %v", n, tune)
		}
	}
	t.Setenv("NQUEENS_OPENCL_PINNED", "0")
	d = requireDevice(t)
	assert.False(t, d.pinned)
}
