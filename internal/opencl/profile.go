package opencl

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/msg"
)

// Two diagnostics for a device's first measurements (scripts/device-check.sh
// sets both), off by default:
//
//   - NQUEENS_OPENCL_PROFILE=1 creates each device's queue with profiling
//     and times every command of a join's launches by its events: the
//     copies to the device, the list, sort and join kernels, the copies
//     back (backend.Stages, count --json's device_stages).
//   - NQUEENS_OPENCL_BUILD_LOG=DIR writes each program's build options and
//     log to DIR (NAME-HASH.log), made where it is missing; on NVIDIA the
//     build adds -cl-nv-verbose, whose log gives each kernel's registers
//     and spills.
//
// Both, NQUEENS_OPENCL_PINNED (pinned.go) and NQUEENS_OPENCL_CACHE
// (cache.go), are read when a device
// opens ([readEnv]): a value they do not take, or a DIR that cannot be
// written, fails the opening with one line saying so.

// settings are what the environment asks of a device.
type settings struct {
	profile  bool
	pinned   int    // NQUEENS_OPENCL_PINNED: 1 on, 0 off, -1 unset (the device's default)
	buildLog string // the folder of the build logs, or ""
	cache    string // the folder of the built programs (cache.go), or "" for none
}

// readEnv reads the devices' settings from the environment: the
// switches 1 or 0 (or unset), the build logs' folder made and written to
// once, so that a name that is a file, a dangling link or a path through
// a file is refused before anything runs.
func readEnv() (settings, error) {
	s := settings{pinned: -1}
	for _, sw := range []struct {
		name string
		set  func(on bool)
	}{
		{"NQUEENS_OPENCL_PROFILE", func(on bool) { s.profile = on }},
		{"NQUEENS_OPENCL_PINNED", func(on bool) { s.pinned = map[bool]int{false: 0, true: 1}[on] }},
	} {
		switch v, set := os.LookupEnv(sw.name); {
		case !set || v == "":
		case v == "1" || v == "0":
			sw.set(v == "1")
		default:
			return settings{}, fmt.Errorf("%s=%s is not a setting (accepted: 1 on, 0 off, or unset)", sw.name, msg.Quote(v))
		}
	}
	s.cache = cacheFolder(os.Getenv("NQUEENS_OPENCL_CACHE"))
	if v := os.Getenv("NQUEENS_OPENCL_CACHE"); v != "" && v != "off" {
		if err := writable(v); err != nil {
			return settings{}, fmt.Errorf("NQUEENS_OPENCL_CACHE=%s names no folder built programs can be kept in (accepted: a folder, or off): %w", msg.Path(v), err)
		}
	}
	if dir := os.Getenv("NQUEENS_OPENCL_BUILD_LOG"); dir != "" {
		if err := writable(dir); err != nil {
			return settings{}, fmt.Errorf("NQUEENS_OPENCL_BUILD_LOG=%s names no folder the build logs can be written to: %w", msg.Path(dir), err)
		}
		s.buildLog = dir
	}
	return s, nil
}

// writable makes the folder dir where it is missing and writes a file in
// it once: nil where files can be kept there.
func writable(dir string) error {
	if target, err := os.Readlink(dir); err == nil {
		if _, err := os.Stat(dir); err != nil {
			return fmt.Errorf("%s is a link to %s, which does not exist", msg.Path(dir), msg.Path(target))
		}
	}
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, ".write-check-*"); err == nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	return msg.PathError(err)
}

// stage is what a command on the queue does, for the profile.
type stage int

const (
	stageCopyIn stage = iota
	stageList
	stageSort
	stageJoin
	stageCopyOut
)

// timedEvent is an enqueued command's event and its stage; timed where
// the queue profiles it.
type timedEvent struct {
	ev    clEvent
	stage stage
	timed bool
}

// event returns where the next command of the set s puts its event: a
// new entry of s.events where the device is profiled or want asks for
// one (the command a launch waits for), else nowhere (0).
func (c *core) event(s *bufSet, st stage, want bool) uintptr {
	if !c.profile && !want {
		return 0
	}
	s.events = append(s.events, timedEvent{stage: st, timed: c.profile})
	return uintptr(unsafe.Pointer(&s.events[len(s.events)-1].ev))
}

// collect adds the device's time of each of the set's events to stages
// (the queue has run them: the launch waited for its last) and releases
// them.
func (c *core) collect(s *bufSet, stages *backend.Stages) {
	for _, e := range s.events {
		if e.ev == 0 {
			continue
		}
		var start, end uint64
		if e.timed && cl.profilingInfo(e.ev, clProfilingStart, 8, unsafe.Pointer(&start), nil) == clSuccess &&
			cl.profilingInfo(e.ev, clProfilingEnd, 8, unsafe.Pointer(&end), nil) == clSuccess && end > start {
			t := time.Duration(end - start)
			switch e.stage {
			case stageCopyIn:
				stages.CopyIn += t
			case stageList:
				stages.List += t
			case stageSort:
				stages.Sort += t
			case stageJoin:
				stages.Join += t
			case stageCopyOut:
				stages.CopyOut += t
			}
		}
		cl.releaseEvent(e.ev)
	}
	s.events = s.events[:0]
}

// buildOptions are opts with what NQUEENS_OPENCL_BUILD_LOG asks of the
// device's compiler (NVIDIA's register report).
func (c *core) buildOptions(opts string) string {
	if c.env.buildLog != "" && strings.Contains(strings.ToUpper(c.info.Platform+c.info.Vendor), "NVIDIA") {
		return opts + " -cl-nv-verbose"
	}
	return opts
}

// keepBuildLog writes a program's build options and log to the folder
// NQUEENS_OPENCL_BUILD_LOG names, if any (best effort: a diagnostic, its
// folder checked when the device opened).
func (c *core) keepBuildLog(name, opts, log string) {
	dir := c.env.buildLog
	if dir == "" {
		return
	}
	h := fnv.New32a()
	h.Write([]byte(opts))
	text := fmt.Sprintf("device: %s\nprogram: %s\noptions: %s\n\n%s\n", c.info, name, opts, log)
	_ = os.MkdirAll(dir, 0o755)
	_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%08x.log", name, h.Sum32())), []byte(text), 0o644)
}
