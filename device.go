package nqueens

import (
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// WithDevice says where a count runs: "cpu" (the default: the CPU workers),
// a back end's name, "opencl" (its first device, a GPU if there is one),
// "opencl:N" (its device N as 'nqueens devices' lists them), "opencl:all"
// (every device of the back end) or "all" (every device of every back end
// beside the CPU workers, each taking tasks from one queue as it
// finishes, so a fast device takes more). OpenCL is the back end this
// library is built with (internal/backend's registry: backends.go).
// Devices count queens without placed ones, n ≤ 32, by the join, sym and
// mirror methods ([Auto] is [partition.Best], the join from n = 12, as on
// the CPU); asking a device for another count is an [*OptionError]. For
// the join the host walks each task's quarter lists and plans its sieve
// (as many goroutines per device as the CPU has cores, see
// [WithDeviceTuning]) and the device lists, sorts and matches its sides
// (on a device that runs on the CPU, such as pocl, the host lists and
// sorts them). The plan, journals, shards and results are the same
// wherever a task is counted: a journal begun on a device resumes on the
// CPU with the same method, and the reverse. The OpenCL runtime is
// loaded when a device is first asked for; where none can be, the count
// fails naming what was looked for.
//
// [Estimate] times a sample on the devices too ([Cost].DeviceSeconds),
// and [Audit] recounts its sample there.
//
// [Count], [CountShards], [Table], [Estimate] and [Audit] take it.
func WithDevice(spec string) ResourceOption {
	return ResourceOption{set: set{"WithDevice", func(c *config) { c.device = spec }}}
}

// checkDevice checks c's device spec and resolves Auto for a device.
func (c *config) checkDevice() error {
	switch {
	case c.device == "" || c.device == "cpu":
		c.device = ""
		return nil
	case backend.ValidSpec(c.device):
	default:
		return optionError("WithDevice", "", "%s is not a device (accepted: %s)", msg.Name{Of: "WithDevice", Value: c.device}, backend.Specs())
	}
	if c.device != "all" && c.given&optWorkers != 0 {
		return optionError("WithWorkers", "WithDevice", "%s sets the CPU workers, and with %s no CPU worker counts (%s counts on every device beside them)",
			msg.Name{Of: "WithWorkers", Value: fmt.Sprint(c.workers)}, msg.Name{Of: "WithDevice", Value: c.device}, msg.Name{Of: "WithDevice", Value: "all"})
	}
	return nil
}

// WithDeviceTuning tunes how a device counts by the join: "key=value"
// pairs separated by commas, any of group (the work-group's size, 32 to
// 1024, a multiple of 32), block (the patterns of one side a work-group
// holds in its table: 32, 64, 128, 256 or 512), items (the items a
// work-item matches per step, 1 to 8), batch (the patterns of both sides
// a launch holds, the tasks in flight), hosts (the host goroutines that
// feed each device; 0, the default, shares the CPU's cores among the
// devices), list (who lists each task's halves: 1 the host, 2 the
// device), sort (who sorts the halves the host lists into the sieve's
// buckets: 1 the host, 2 the device; for both, 0, the default, is the
// host on a device that runs on the CPU, such as pocl, and the device
// otherwise), cut (whether a launch's large jobs are cut into pieces
// against ranges of their items: 1 never, 2 always, 0 all but on a
// device that runs on the CPU), popcount (the matching's counts, 32 or
// 64 bits; 0, 64 on a device that runs on the CPU and 32 on any other),
// chunk (the table's chunks, 5, 6 or 7 bits; 0, 6 on a device that runs
// on the CPU and 5 on any other) and layout (the table
// in local memory: 1 vectors, 2 planes; 0, vectors on a device that runs
// on the CPU and planes on any other). Knobs not named keep their
// defaults (docs/devices.md). A value out of bounds, a knob given twice,
// or a tuning without a device to tune ([WithDevice] unset or "cpu") is
// an [*OptionError]; a tuning the device cannot run (a work-group or table
// too large for it) fails the count naming the knob. Results never
// depend on it: only the speed does.
//
// [Count], [CountShards], [Table], [Estimate] and [Audit] take it.
func WithDeviceTuning(spec string) ResourceOption {
	return ResourceOption{set: set{"WithDeviceTuning", func(c *config) { c.tuning = spec }}}
}

// checkTuning reads r's device tuning.
func (r *resources) checkTuning() error {
	t, err := backend.ParseKnobs(r.tuning)
	if err != nil {
		return optionError("WithDeviceTuning", "", "%s: %s", msg.Name{Of: "WithDeviceTuning", Value: ""}, err)
	}
	r.joinTuning = t
	return nil
}

// devicePlan refuses, before counting, a plan the device kernels cannot
// count.
func (r *resources) devicePlan(plan *partition.Plan) error {
	if r.device == "" {
		return nil
	}
	if err := engine.CheckDevicePlan(plan); err != nil {
		reason := strings.TrimPrefix(err.Error(), engine.ErrDevice.Error()+": ")
		return optionError("WithDevice", "", "%s cannot count this board: %s", msg.Name{Of: "WithDevice", Value: r.device}, reason)
	}
	return nil
}

// side is who would list a count's tasks and what its devices' batches
// take: the goroutines that list (the CPU workers; with a device, its
// host goroutines, and the CPU workers beside them for "all"), the host
// goroutines among them, and the bytes of the devices' batches.
type side struct {
	listers, hosts int
	batches        int64
}

// side is r's [side] for a count by method, by engine.DeviceSide's rule,
// over the devices r names as the runtime lists them (those a count
// opens: how many, and whether they run on the CPU, which sets their
// host goroutines). Where the runtime cannot tell (none installed, as on
// a cluster's login node), one device that is not on the CPU.
func (r *resources) side(method partition.Method) side {
	if r.device == "" {
		return side{listers: max(1, r.workers)}
	}
	devices, onCPU := 1, false
	if infos, err := backend.Select(r.device); err == nil && len(infos) > 0 {
		devices, onCPU = len(infos), true
		for _, info := range infos {
			onCPU = onCPU && info.OnCPU()
		}
	}
	hosts, batches := engine.DeviceSide(method == partition.Join, devices, onCPU, r.joinTuning)
	sd := side{listers: hosts * devices, hosts: hosts * devices, batches: batches}
	if r.device == "all" {
		sd.listers += r.workers
	}
	sd.listers = max(1, sd.listers)
	return sd
}

// openDevice opens a device listed by its back end (the registry's
// Kind.Open): the tests' seam to count the devices opened.
var openDevice = func(info backend.Info) (backend.Opened, error) {
	k, ok := backend.Lookup(info.Kind)
	if !ok {
		return nil, fmt.Errorf("no back end %q", info.Kind)
	}
	return k.Open(info)
}

// devices are a count's devices, opened: the engine's back ends, their
// names, and the CPU workers that count beside them. Close releases them
// (or, for devices CountShards shares, lets them go: [sharedDevices]).
type devices struct {
	list    []backend.Device
	names   []string
	workers int // the CPU workers beside them (-1: none; with no device, the config's)
	opened  []backend.Opened
	release func() // set on a shared set's handle: Close lets it go
}

// Close releases the devices.
func (ds *devices) Close() {
	if ds.release != nil {
		ds.release()
		return
	}
	for _, d := range ds.opened {
		d.Close()
	}
	ds.opened = nil
}

// sharedDevices are the devices CountShards opens once for all the
// shards it counts, so that a shard does not pay the devices' start
// (contexts, programs) again: each shard's run holds them, the
// iteration's end lets them go, and the last of those closes them (a run
// the grace period abandoned holds them until its engine returns).
type sharedDevices struct {
	mu    sync.Mutex
	ds    *devices
	holds int
	ended bool
}

// hold returns a handle on the shared devices, opened by c on first use,
// and their start-up so far (0 where they were opened now).
func (s *sharedDevices) hold(c *config) (*devices, time.Duration, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var base time.Duration
	if s.ds == nil {
		ds, err := c.openOwn()
		if err != nil {
			return nil, 0, err
		}
		s.ds = ds
	} else {
		base = s.ds.startup()
	}
	s.holds++
	h := *s.ds
	h.release = s.let
	return &h, base, nil
}

// let lets one hold go.
func (s *sharedDevices) let() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.holds--
	s.closeIfDone()
}

// end is the iteration's end: the devices close once no run holds them.
func (s *sharedDevices) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	s.closeIfDone()
}

func (s *sharedDevices) closeIfDone() {
	if s.ended && s.holds == 0 && s.ds != nil {
		s.ds.Close()
		s.ds = nil
	}
}

// startup is the time the devices took to start, summed (backend.Starter).
func (ds *devices) startup() time.Duration {
	var d time.Duration
	for _, dev := range ds.list {
		if s, ok := dev.(backend.Starter); ok {
			d += s.Startup()
		}
	}
	return d
}

// openDevices opens the devices c names (none for the CPU), or holds
// those CountShards shares; the CPU workers run beside them only for
// "all". base is the devices' start-up before this run (0 where they
// were opened for it).
func (c *config) openDevices() (ds *devices, base time.Duration, err error) {
	if c.shared != nil && c.device != "" {
		return c.shared.hold(c)
	}
	ds, err = c.openOwn()
	return ds, 0, err
}

// openOwn opens the devices r names for one run.
func (r *resources) openOwn() (*devices, error) {
	ds := &devices{workers: r.workers}
	if r.device == "" {
		return ds, nil
	}
	ds.workers = -1
	if r.device == "all" {
		ds.workers = r.workers
	}
	infos, err := backend.Select(r.device)
	if err != nil {
		return nil, fmt.Errorf("device %s: %w", r.device, err)
	}
	for _, info := range infos {
		d, err := openDevice(info)
		if err != nil {
			ds.Close()
			return nil, fmt.Errorf("device %s: %s: %w", r.device, info.Name, err)
		}
		ds.opened = append(ds.opened, d)
		ds.list = append(ds.list, d)
		ds.names = append(ds.names, d.Name())
	}
	return ds, nil
}
