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

// TestSimulatedPipeline runs the device join against the simulated GPU
// with the device listing, in a device-bound run (the device's modelled
// time twice the host's own work) of n = 20 (shard 5 of 16: the listing's
// Go twin runs on the host's cores), and checks that the device is busy
// at least 90% of the wall time and that the median launch's largest job
// is within 1.2 times its mean. It logs busy=0.NN tail=N.NN (tail in
// modelled time). Four host goroutines on two cores keep two batches in
// flight a core; the figures, queued (ConcurrentJoiner) and under one
// lock, are in docs/devices.md ("A simulated GPU").
func TestSimulatedPipeline(t *testing.T) {
	if !long.Run() {
		t.Skip("times a device join of a 16th of n = 20 twice (a quarter of a minute): NQUEENS_LONG")
	}
	long.SkipRace(t)
	plan, err := partition.MakeShard(context.Background(), partition.Job{N: 20, Method: partition.Join}, 5, 16)
	require.NoError(t, err)
	tune := backend.Knobs{List: backend.ByDevice, Hosts: 4, Batch: 1 << 20}
	run := func(d *simDevice) (time.Duration, JoinProfile) {
		var prof JoinProfile
		began := time.Now()
		_, err := Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{d}, Tuning: tune, Profile: &prof})
		require.NoError(t, err)
		return time.Since(began), prof
	}
	// The host's own work: the run on a device that takes no time.
	host, prof := run(&simDevice{concurrent: true})
	units := prof.Patterns + prof.ItemBlocks + tableItems*prof.Blocks
	require.Positive(t, units)
	perUnit := 2 * float64(host) / float64(units)
	t.Logf("host alone %v, %d launches, %d patterns and item-blocks: %.2f ns a unit makes the device's time twice the host's", host, prof.Launches, units, perUnit)
	busy, tails := map[bool]float64{}, map[bool]float64{}
	for _, concurrent := range []bool{true} { // add false to compare with one launch at a time
		d := &simDevice{perUnit: perUnit, concurrent: concurrent}
		wall, _ := run(d)
		busy[concurrent] = d.busy.Seconds() / wall.Seconds()
		tail := 0.0
		if len(d.tails) > 0 {
			tail = median(d.tails)
		}
		tails[concurrent] = tail
		t.Logf("concurrent=%v: busy=%.2f tail=%.2f (%d launches, wall %v, device %v)", concurrent, busy[concurrent], tail, d.launches, wall.Round(time.Millisecond), d.busy.Round(time.Millisecond))
	}
	assert.GreaterOrEqual(t, busy[true], 0.90, "a device-bound run keeps the device busy")
	assert.LessOrEqual(t, tails[true], 1.2+1e-9, "a launch's largest job within 1.2 times its mean")
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
