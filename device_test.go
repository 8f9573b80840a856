package nqueens

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sync/errgroup"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/backend"
)

// needDevice skips a test where no OpenCL device exists, with a note, or
// fails it where NQUEENS_REQUIRE_OPENCL is set (CI, which installs pocl).
func needDevice(t *testing.T) {
	t.Helper()
	infos, err := backend.Select("opencl")
	if len(infos) > 0 {
		return
	}
	if os.Getenv("NQUEENS_REQUIRE_OPENCL") != "" {
		t.Fatalf("NQUEENS_REQUIRE_OPENCL is set but there is no OpenCL device (%v)", err)
	}
	t.Skipf("no OpenCL device here (%v): install pocl-opencl-icd to run this test", err)
}

// stopAfter is a progress callback that cancels the count once k tasks
// are done, leaving a journal that holds part of the count.
func stopAfter(k int, cancel context.CancelFunc) RunOption {
	return WithProgress(func(p Progress) {
		if p.TasksDone >= k {
			cancel()
		}
	})
}

// TestDeviceJournal begins a count on the device and resumes it on the
// CPU, and the reverse: the journal does not tell where a task was counted,
// and the totals are exact. It also counts shards on each and merges them.
func TestDeviceJournal(t *testing.T) {
	needDevice(t)
	for _, m := range []Method{Join, Sym, Mirror} {
		for _, first := range []string{"opencl", "cpu"} {
			second := map[string]string{"opencl": "cpu", "cpu": "opencl"}[first]
			var j memJournal
			ctx, cancel := context.WithCancel(context.Background())
			opts := []CountOption{WithMethod(m), WithDevice(first), withJournal(&j, "j"), WithGrace(0), stopAfter(40, cancel)}
			if first == "cpu" {
				opts = append(opts, WithWorkers(1))
			}
			_, err := Count(ctx, 14, opts...)
			cancel()
			var stopped *StoppedError
			require.True(t, errors.As(err, &stopped), "%s %s: %v", m, first, err)
			require.Greater(t, stopped.Done, 0)
			c, err := Count(context.Background(), 14, WithMethod(m), WithDevice(second), withJournal(&j, "j"))
			require.NoError(t, err, "%s resumed on %s", m, second)
			assert.Positive(t, c.Resumed, "%s resumed on %s", m, second)
			assert.Equal(t, second == "opencl", len(c.Devices) > 0)
			want(t, 14, c)
		}
	}
	methods := []Method{Join, Sym}
	if testing.Short() {
		methods = methods[:1]
	}
	for _, m := range methods {
		var outs [][]byte
		for i, dev := range []string{"opencl", "cpu", "all"} {
			var out bytes.Buffer
			c, err := Count(context.Background(), 15, WithMethod(m), WithDevice(dev), WithShard(i, 3, &out))
			require.NoError(t, err)
			assert.True(t, c.Partial())
			outs = append(outs, out.Bytes())
		}
		files := func() []File {
			var fs []File
			for i, o := range outs {
				fs = append(fs, File{Name: []string{"opencl", "cpu", "all"}[i], R: bytes.NewReader(o)})
			}
			return fs
		}
		c, err := Merge(context.Background(), files()...)
		require.NoError(t, err)
		want(t, 15, c)
		// An audit recounts its sample on the device: the same lines.
		audited, err := Audit(context.Background(), 0.05, 7, files(), WithDevice("opencl"), WithDeviceTuning("block=64"))
		require.NoError(t, err, "%s", m)
		assert.Positive(t, audited, "%s", m)
	}
}

// TestDeviceEstimate times a sample on the device beside the CPU's
// estimate.
func TestDeviceEstimate(t *testing.T) {
	needDevice(t)
	if testing.Short() {
		t.Skip("-short: a sample on the device takes seconds")
	}
	e, err := Estimate(context.Background(), 16, WithDevice("opencl"), WithSample(500*time.Millisecond))
	require.NoError(t, err)
	assert.Positive(t, e.CoreSeconds)
	assert.Positive(t, e.DeviceSeconds)
	assert.LessOrEqual(t, e.DeviceSecondsLow, e.DeviceSeconds)
	assert.GreaterOrEqual(t, e.DeviceSecondsHigh, e.DeviceSeconds)
	assert.Equal(t, 16, e.DeviceBoard)
	assert.Positive(t, e.DeviceSampled)
	assert.Len(t, e.Devices, 1)
	plain, err := Estimate(context.Background(), 16, WithSample(100*time.Millisecond))
	require.NoError(t, err)
	assert.Zero(t, plain.DeviceSeconds)
	_, err = Estimate(context.Background(), 12, WithDevice("opencl"), WithPiece(King))
	var oe *OptionError
	assert.ErrorAs(t, err, &oe)
}

// TestDeviceOptions checks what a device refuses, and that Auto is the
// join there as on the CPU.
func TestDeviceOptions(t *testing.T) {
	ctx := context.Background()
	var oe *OptionError
	_, err := Count(ctx, 8, WithDevice("gpu"))
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "WithDevice(gpu) is not a device (accepted: cpu, opencl, opencl:N, opencl:all or all)", err.Error())
	_, err = Count(ctx, 8, WithDevice("opencl"), WithWorkers(4))
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "WithWorkers(4) sets the CPU workers, and with WithDevice(opencl) no CPU worker counts (WithDevice(all) counts on every device beside them)", err.Error())
	needDevice(t)
	_, err = Count(ctx, 8, WithDevice("opencl"), WithDeviceTuning("block=100"))
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, "WithDeviceTuning: block=100 is out of bounds (accepted: 32..512, a power of two)", err.Error())
	for _, opts := range [][]CountOption{{WithPiece(King)}, {WithPlaced(Square{Row: 0, Col: 1})}} {
		_, err := Count(ctx, 12, append(opts, WithDevice("opencl"))...)
		require.ErrorAs(t, err, &oe)
		assert.ErrorIs(t, err, ErrInvalid)
		assert.Contains(t, err.Error(), "WithDevice(opencl) cannot count this board")
	}
	// A board past the device kernels' rows is refused before it is
	// planned (it had taken 18 s at n = 33), with the device or all.
	plans := countPlans(t)
	for _, spec := range []string{"opencl", "opencl:0", "all"} {
		_, err = Count(ctx, 33, WithDevice(spec), WithMethod(Sym))
		require.ErrorAs(t, err, &oe)
		assert.Contains(t, err.Error(), "n = 33 is beyond the device kernels' 32 rows")
		_, err = Estimate(ctx, 33, WithDevice(spec), WithMethod(Sym))
		require.ErrorAs(t, err, &oe)
	}
	assert.Zero(t, plans.Load(), "refused before planning")
	c, err := Count(ctx, 12, WithDevice("opencl"))
	require.NoError(t, err)
	assert.Equal(t, Join, c.Method)
	assert.Positive(t, c.Startup, "the device's start: its context and the join's program")
	assert.LessOrEqual(t, c.Startup, c.Elapsed)
	cpu, err := Count(ctx, 12)
	require.NoError(t, err)
	assert.Zero(t, cpu.Startup)
	want(t, 12, c)
	c, err = Count(ctx, 11, WithDevice("opencl"), WithDeviceTuning("group=64,block=32,items=2,hosts=3"))
	require.NoError(t, err)
	assert.Equal(t, Sym, c.Method)
	want(t, 11, c)
	c, err = Count(ctx, 14, WithDevice("opencl"), WithDeviceTuning("group=64,block=32,items=2,hosts=3"))
	require.NoError(t, err)
	want(t, 14, c)
}

// TestDeviceDiagnostics: with NQUEENS_OPENCL_PROFILE=1 the device join's
// profile holds the device's own time per stage, from the runtime's
// events (the host's listing and sorting on pocl: copies in and the join
// kernel; the device's listing: the list and sort kernels too), and
// NQUEENS_OPENCL_BUILD_LOG keeps each program's build options and log.
func TestDeviceDiagnostics(t *testing.T) {
	needDevice(t)
	logs := t.TempDir()
	t.Setenv("NQUEENS_OPENCL_PROFILE", "1")
	t.Setenv("NQUEENS_OPENCL_BUILD_LOG", logs)
	for _, tuning := range []string{"list=1", "list=2"} {
		c, err := Count(context.Background(), 14, WithDevice("opencl"), WithDeviceTuning(tuning))
		require.NoError(t, err)
		want(t, 14, c)
		require.NotNil(t, c.DeviceJoin)
		s := c.DeviceJoin.Stages
		assert.Positive(t, s.CopyIn, tuning)
		assert.Positive(t, s.Join, tuning)
		assert.Positive(t, s.CopyOut, tuning)
		assert.Greater(t, c.DeviceJoin.Copied, int64(8*c.DeviceJoin.Patterns/2), "%s: the bytes copied", tuning)
		if tuning == "list=2" {
			assert.Positive(t, s.List, tuning)
			assert.Positive(t, s.Sort, tuning)
		}
	}
	names, err := filepath.Glob(filepath.Join(logs, "join-*.log"))
	require.NoError(t, err)
	require.NotEmpty(t, names)
	b, err := os.ReadFile(names[0])
	require.NoError(t, err)
	assert.Contains(t, string(b), "options: -cl-std=CL1.2 -DPARTWORDS=")
	t.Setenv("NQUEENS_OPENCL_PROFILE", "")
	c, err := Count(context.Background(), 13, WithDevice("opencl"))
	require.NoError(t, err)
	assert.Zero(t, c.DeviceJoin.Stages, "no events without NQUEENS_OPENCL_PROFILE")
}

// TestConcurrentDevices counts, estimates and lists devices from 8
// goroutines at once, each count exact. It runs in a fresh process of
// the test binary, so that the goroutines' calls are the first to load
// the OpenCL runtime and enumerate its devices (the race that crashed in
// clGetDeviceInfo, or found no platform, was in the loader's first use).
func TestConcurrentDevices(t *testing.T) {
	if os.Getenv("NQUEENS_CONCURRENT_DEVICES") == "" {
		needDevice(t)
		cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentDevices$", "-test.v")
		cmd.Env = append(os.Environ(), "NQUEENS_CONCURRENT_DEVICES=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "the child process:\n%s", out)
		assert.Contains(t, string(out), "--- PASS: TestConcurrentDevices")
		return
	}
	const goroutines = 8
	specs := []string{"opencl", "opencl:0", "all", "opencl:all"}
	methods := []Method{Join, Sym, Mirror}
	var g errgroup.Group
	for i := range goroutines {
		g.Go(func() error {
			spec := specs[i%len(specs)]
			switch i % 4 {
			case 3:
				infos, err := backend.All()
				if err != nil || len(infos) == 0 {
					return fmt.Errorf("goroutine %d: backend.All() = %d devices, %v", i, len(infos), err)
				}
				if _, err := Estimate(context.Background(), 12, WithDevice(spec), WithSample(50*time.Millisecond)); err != nil {
					return fmt.Errorf("goroutine %d: Estimate(12, %s): %w", i, spec, err)
				}
				return nil
			default:
				m := methods[i%len(methods)]
				c, err := Count(context.Background(), 12, WithDevice(spec), WithMethod(m))
				if err != nil {
					return fmt.Errorf("goroutine %d: Count(12, %s, %s): %w", i, spec, m, err)
				}
				if got := c.Total.String(); got != "14200" {
					return fmt.Errorf("goroutine %d: Count(12, %s, %s) = %s, want 14200", i, spec, m, got)
				}
				return nil
			}
		})
	}
	require.NoError(t, g.Wait())
}

// TestDevicePlanAgrees: a plan and a count on a device decide memory by
// one rule: the host goroutines the count starts (on pocl, a device on
// the CPU, one a core), and their batches. A memory limit the plan
// refuses, the count refuses with the same figure; the figure it names
// is one the count then takes.
func TestDevicePlanAgrees(t *testing.T) {
	needDevice(t)
	ctx := context.Background()
	infos, err := backend.Select("opencl")
	require.NoError(t, err)
	perCore := 2
	if infos[0].OnCPU() {
		perCore = 1
	}
	e, err := Estimate(ctx, 18, WithDevice("opencl"))
	require.NoError(t, err)
	assert.Equal(t, perCore*engine.DefaultWorkers(), e.Hosts, "host goroutines")
	assert.Equal(t, e.Hosts, e.Workers, "no CPU worker lists beside them")
	all, err := Estimate(ctx, 18, WithDevice("all"))
	require.NoError(t, err)
	assert.Equal(t, e.Hosts+engine.DefaultWorkers(), all.Workers, "all: the CPU workers beside the hosts")

	var planErr, countErr *MemoryError
	_, err = Estimate(ctx, 24, WithDevice("opencl"), WithMemory(200<<20))
	require.ErrorAs(t, err, &planErr)
	_, err = Count(ctx, 24, WithDevice("opencl"), WithMethod(Join), WithMemory(200<<20))
	require.ErrorAs(t, err, &countErr)
	assert.Equal(t, planErr.Need, countErr.Need, "plan and count need the same")
	assert.Equal(t, planErr.Hosts, countErr.Hosts)
	assert.Equal(t, e.Hosts, countErr.Hosts)
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	_, err = Count(stop, 24, WithDevice("opencl"), WithMethod(Join), WithMemory(countErr.Need), WithProgress(func(Progress) { cancel() }))
	assert.ErrorIs(t, err, context.Canceled, "the figure named fits")
}

// TestCountShardsDevicesOnce: CountShards opens the devices once for all
// the shards it counts (a shard does not pay their start again), and
// closes them at its end (a second range opens them again); every
// shard's count is exact.
func TestCountShardsDevicesOnce(t *testing.T) {
	needDevice(t)
	var opens atomic.Int64
	saved := openDevice
	openDevice = func(info backend.Info) (backend.Opened, error) {
		opens.Add(1)
		return saved(info)
	}
	t.Cleanup(func() { openDevice = saved })
	dir := t.TempDir()
	var files []File
	shards := 0
	for c, err := range CountShards(context.Background(), 12, dir, 0, 3, 4, WithDevice("opencl")) {
		require.NoError(t, err)
		shards++
		assert.Equal(t, []string{c.Devices[0]}, c.Devices)
		result, _, err := ShardPaths(dir, c.Shard, c.Shards)
		require.NoError(t, err)
		f, err := os.Open(result)
		require.NoError(t, err)
		defer f.Close()
		files = append(files, File{Name: result, R: f})
	}
	assert.Equal(t, 4, shards)
	assert.Equal(t, int64(1), opens.Load(), "the devices opened once for the four shards")
	c, err := Merge(context.Background(), files...)
	require.NoError(t, err)
	want(t, 12, c)
	// A second range opens them again: the first one's were closed.
	for _, err := range CountShards(context.Background(), 12, t.TempDir(), 0, 1, 4, WithDevice("opencl")) {
		require.NoError(t, err)
	}
	assert.Equal(t, int64(2), opens.Load())
}
