package engine

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/partition"
)

// simDevice is a simulated GPU for measuring the device join's pipeline
// on the host: one queue that runs one command at a time, each taking
// the time a model gives for the work it was handed (perUnit for each
// pattern listed, each item matched against a block and each block's
// table, JoinBatch.jobCost), during which
// the calling goroutine sleeps, so that the host's cores do only the
// host's work. Listing runs the listing kernel's Go twin (the host's
// planning needs its bucket counts); matching computes nothing, so the
// counts it returns are not the board's. With concurrent set it is a
// ConcurrentJoiner, as the OpenCL device is.
type simDevice struct {
	perUnit    float64 // nanoseconds
	concurrent bool

	mu       sync.Mutex
	freeAt   time.Time     // when the queue's last command ends
	busy     time.Duration // the queue's time running commands
	launches int
	tails    []float64 // each launch's largest job over its mean, in modelled time (jobCost)
}

func (d *simDevice) Name() string { return "simulated GPU" }
func (d *simDevice) Search(context.Context, *backend.SearchBatch) error {
	return fmt.Errorf("the simulated device joins only")
}

// run queues a command of units units of work, waits for the device to
// reach it, runs compute (what the command leaves on the host, its
// results), and waits for the command's end.
func (d *simDevice) run(units int64, compute func()) {
	dur := time.Duration(float64(units) * d.perUnit)
	d.mu.Lock()
	start := time.Now()
	if d.freeAt.After(start) {
		start = d.freeAt
	}
	d.freeAt = start.Add(dur)
	d.busy += dur
	end := d.freeAt
	d.mu.Unlock()
	time.Sleep(time.Until(start))
	compute()
	time.Sleep(time.Until(end))
}

// List lists the batch's sides by the listing kernel's Go twin, within
// the command's time: the units are the patterns a listing yields, which
// the sides' room bounds from above.
func (d *simDevice) ListHalves(_ context.Context, b *backend.JoinBatch) error {
	var room int64
	for s := range b.NumSlots() {
		room += int64(uint32(b.Slots[backend.SlotWords*s] >> 32))
	}
	d.run(room, func() { listTwin(b) })
	return nil
}

func (d *simDevice) Join(_ context.Context, b *backend.JoinBatch) error {
	b.Out = append(b.Out[:0], make([]uint64, b.Blocks())...)
	var most, sum int64
	jb := joinBatch{JoinBatch: *b} // its jobs, for the host's cost model
	for j := range b.Blocks() {
		cost := jb.jobCost(j)
		most, sum = max(most, cost), sum+cost
	}
	d.mu.Lock()
	d.launches++
	if sum > 0 {
		d.tails = append(d.tails, float64(most)*float64(b.Blocks())/float64(sum))
	}
	d.mu.Unlock()
	d.run(sum, func() {})
	return nil
}

func (d *simDevice) JoinsConcurrently() bool         { return d.concurrent }
func (d *simDevice) ReleaseBatch(*backend.JoinBatch) {}

// simPipeline is a 16th of n = 20 (shard 5) and the device join's tuning
// against the simulated GPU: the device listing, four host goroutines
// on two cores keeping two batches in flight a core.
func simPipeline(tb testing.TB) (*partition.Plan, backend.Knobs) {
	plan, err := partition.MakeShard(context.Background(), partition.Job{N: 20, Method: partition.Join}, 5, 16)
	require.NoError(tb, err)
	return plan, backend.Knobs{List: backend.ByDevice, Hosts: 4, Batch: 1 << 20}
}

// runSim runs the plan on d and returns its wall time and profile.
func runSim(tb testing.TB, plan *partition.Plan, tune backend.Knobs, d *simDevice) (time.Duration, JoinProfile) {
	var prof JoinProfile
	began := time.Now()
	_, err := Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{d}, Tuning: tune, Profile: &prof})
	require.NoError(tb, err)
	return time.Since(began), prof
}

// TestSimulatedPipeline runs the device join against the simulated GPU
// (a device that takes no time: the check is of modelled time, not the
// clock) and checks that the median launch's largest job is within 1.2
// times its mean (jobCost: the cut of large jobs). How busy the pipeline
// keeps a device is a speed, measured by [BenchmarkSimulatedPipeline].
func TestSimulatedPipeline(t *testing.T) {
	if !long.Run() {
		t.Skip("a device join of a 16th of n = 20 (seconds): NQUEENS_LONG")
	}
	long.SkipRace(t)
	plan, tune := simPipeline(t)
	d := &simDevice{concurrent: true}
	_, prof := runSim(t, plan, tune, d)
	require.Positive(t, d.launches)
	require.EqualValues(t, d.launches, prof.Launches)
	tail := median(d.tails)
	t.Logf("%d launches, tail=%.2f", d.launches, tail)
	assert.LessOrEqual(t, tail, 1.2+1e-9, "a launch's largest job within 1.2 times its mean")
}

// BenchmarkSimulatedPipeline times the device join against the simulated
// GPU in a device-bound run (the device's modelled time twice the host's
// own work, calibrated by a run on a device that takes no time) and
// reports how busy the host goroutines keep it (busy, of the wall time;
// 0.95-0.97 on the 2-core EPYC, docs/devices.md's "A simulated GPU") and
// the median launch's tail. go test ./engine -run '^$' -bench SimulatedPipeline -benchtime 1x
func BenchmarkSimulatedPipeline(b *testing.B) {
	plan, tune := simPipeline(b)
	host, prof := runSim(b, plan, tune, &simDevice{concurrent: true})
	units := prof.Patterns + prof.ItemBlocks + tableItems*prof.Blocks
	require.Positive(b, units)
	perUnit := 2 * float64(host) / float64(units)
	var busy, tail float64
	runs := 0
	for b.Loop() {
		d := &simDevice{perUnit: perUnit, concurrent: true}
		wall, _ := runSim(b, plan, tune, d)
		busy += d.busy.Seconds() / wall.Seconds()
		tail += median(d.tails)
		runs++
	}
	b.ReportMetric(busy/float64(runs), "busy")
	b.ReportMetric(tail/float64(runs), "tail")
}

// median is xs's median (xs is reordered).
func median(xs []float64) float64 {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs[len(xs)/2]
}
