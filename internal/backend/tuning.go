package backend

import (
	"fmt"
	"strconv"
	"strings"
)

// Knobs are how a device's join runs, as a user gives them
// (--device-tuning, WithDeviceTuning): the sizes the kernels are built
// for and how the host feeds them. The zero value of a knob means its
// default; the engine resolves them for each device into a [Tuning].
type Knobs struct {
	// Group is the work-group size: the work-items that match one block.
	Group int
	// Block is how many of the transposed side's patterns a work-group
	// holds in its table (32, 64, 128, 256 or 512).
	Block int
	// Items is how many items a work-item matches per step of its loop.
	Items int
	// Batch is how many patterns (both sides) a launch holds at most: the
	// tasks in flight. Where the device lists, it bounds the sides' room:
	// their north–south pairs, which the patterns never pass. Unset, it
	// is sized from the device's traits: the default, or less where the
	// device is small or its memory holds less.
	Batch int
	// Hosts is how many host goroutines list and sort tasks for the
	// device (0: the CPU's logical cores shared among the devices, twice
	// over for a device that does not run on the CPU).
	Hosts int
	// List says who lists the tasks' sides: [ByHost], or [ByDevice] from
	// the quarter lists the host ships (the host then lists only a way
	// whose sides might not fit a batch); [ByAuto], the default, the host
	// for a device that runs on the CPU (pocl: the host's AVX-512 listing
	// is faster on the same cores) and the device for any other.
	List int
	// Sort says who sorts the sides the host lists into the sieve's
	// buckets: [ByHost] (the CPU's counting sort, before the batch is
	// copied) or [ByDevice] (a sort kernel); [ByAuto], the default, the
	// host for a device that runs on the CPU and the device for any other.
	// The sides the device lists are sorted there.
	Sort int
	// Cut says whether the host cuts a launch's large jobs into pieces:
	// [CutNever] or [CutAlways]; 0, the default, never on a device that
	// runs on the CPU (where a piece's table costs more than the tail it
	// saves) and always on any other.
	Cut int
	// Popcount is the width of the matching kernel's counts: 32 (a
	// 32-bit popcount and sum a lane, a GPU's native width) or 64 (64-bit
	// ones: on a CPU device without 32-bit vector popcounts, pocl on
	// AVX-512 without VPOPCNTDQ, n = 18 took 2.7 → 3.5 s at 32); 0, the
	// default, 64 on a device that runs on the CPU and 32 on any other.
	Popcount int
	// Chunk is the bits of the matching kernel's table chunks: 6 (a
	// chunk's 64 values, the CPU's), 5 (32 values: with the planar layout
	// a warp's 32 lanes load from 32 banks whatever values they look up,
	// where at 6 values v and v+32 share a bank; a pattern in more chunks,
	// a table half as large a chunk) or 7 (128 values: fewer lookups an
	// item, a table twice as large a chunk); 0, the default, 6 on a
	// device that runs on the CPU and 5 on any other (the GPU model's
	// choice).
	Chunk int
	// Layout is how the matching kernel's table lies in local memory:
	// [LayoutVector] (an entry one vector, one load: a CPU's SIMD
	// register) or [LayoutPlanar] (each word of the entries in a plane of
	// its own, so that a GPU's lanes looking up random entries spread
	// over its shared-memory banks); 0, the default, vector on a device
	// that runs on the CPU and planar on any other.
	Layout int
}

// Who lists or sorts a device join's sides (Knobs.List, Knobs.Sort).
const (
	ByAuto   = 0
	ByHost   = 1
	ByDevice = 2
)

// Whether a launch's large jobs are cut (Knobs.Cut; 0 auto).
const (
	CutNever  = 1
	CutAlways = 2
)

// The table's layouts (Knobs.Layout; 0 auto).
const (
	LayoutVector = 1
	LayoutPlanar = 2
)

// DefaultKnobs are the knobs a device's join runs with unless told
// otherwise; those left zero here are chosen for each device.
var DefaultKnobs = Knobs{Group: 128, Block: 256, Items: 1, Batch: 1 << 22}

// MaxHosts bounds the host goroutines a device's join takes (Knobs.Hosts).
const MaxHosts = 4096

// The bounds of each knob, in fields' order.
var knobBounds = [...]struct {
	name     string
	lo, hi   int
	multiple int // -1: a power of two
}{
	{"group", MinGroup, 1024, MinGroup},
	{"block", 32, 512, -1}, // a power of two: the kernel's table entry is one vector
	{"items", 1, 8, 1},
	{"batch", MinBatch, 1 << 28, 1},
	{"hosts", 0, MaxHosts, 1},
	{"list", 0, 2, 1},
	{"sort", 0, 2, 1},
	{"cut", 0, 2, 1},
	{"popcount", 0, 64, 32},
	{"chunk", 5, 7, 1},
	{"layout", 0, 2, 1},
}

// MinBatch is the smallest batch a tuning may give (Knobs.Batch).
const MinBatch = 1 << 16

// fields returns k's knobs in knobBounds' order.
func (k *Knobs) fields() [len(knobBounds)]*int {
	return [...]*int{&k.Group, &k.Block, &k.Items, &k.Batch, &k.Hosts, &k.List, &k.Sort, &k.Cut, &k.Popcount, &k.Chunk, &k.Layout}
}

// TuningError is a tuning that cannot be read, or that a device cannot
// run: the knob at fault (empty where the text is not a tuning at all)
// and why, in words that say what is accepted.
type TuningError struct {
	Knob   string
	Reason string
}

func (e *TuningError) Error() string { return e.Reason }

// TuningErrorf is a *TuningError about knob, its reason format with
// args: the parser's and a back end's refusals of a tuning.
func TuningErrorf(knob, format string, args ...any) error {
	return &TuningError{Knob: knob, Reason: fmt.Sprintf(format, args...)}
}

// ParseKnobs reads knobs from "key=value" pairs separated by commas
// (group, block, items, batch, hosts, list, sort, cut, popcount, chunk,
// layout; for instance "group=256,block=128"), each knob at most once,
// with no spaces and no empty pair; "" is the defaults. The knobs it does
// not name are left zero, their defaults. Its errors are
// [*TuningError]s.
func ParseKnobs(s string) (Knobs, error) {
	var k Knobs
	if s == "" {
		return k, nil
	}
	names := make([]string, len(knobBounds))
	for i, b := range knobBounds {
		names[i] = b.name + "="
	}
	accepted := "accepted: " + strings.Join(names, ", ") + ", each once, separated by commas"
	seen := map[string]bool{}
	for _, kv := range strings.Split(s, ",") {
		key, value, ok := strings.Cut(kv, "=")
		i := -1
		for j, b := range knobBounds {
			if b.name == key {
				i = j
			}
		}
		switch {
		case kv == "":
			return Knobs{}, TuningErrorf("", "%q has an empty pair (%s)", s, accepted)
		case strings.TrimSpace(kv) != kv:
			return Knobs{}, TuningErrorf("", "%q is not a tuning: a pair takes no spaces around it (%s, with no spaces)", kv, accepted)
		case !ok || i < 0:
			return Knobs{}, TuningErrorf("", "%q is not a tuning (%s)", kv, accepted)
		case seen[key]:
			return Knobs{}, TuningErrorf(key, "%s= is given twice (%s)", key, accepted)
		}
		seen[key] = true
		v, err := strconv.Atoi(value)
		b := knobBounds[i]
		bounds := fmt.Sprintf("%d..%d%s", b.lo, b.hi, multipleOf(b.multiple))
		switch {
		case err != nil || value[0] == '+':
			return Knobs{}, TuningErrorf(b.name, "%q is not a tuning: %s= takes a number in digits alone (accepted: %s=%s)", kv, b.name, b.name, bounds)
		case v < b.lo || v > b.hi || b.multiple > 0 && v%b.multiple != 0 || b.multiple < 0 && v&(v-1) != 0:
			return Knobs{}, TuningErrorf(b.name, "%s=%d is out of bounds (accepted: %s)", b.name, v, bounds)
		}
		*k.fields()[i] = v
	}
	return k, nil
}

func multipleOf(m int) string {
	switch m {
	case 1:
		return ""
	case -1:
		return ", a power of two"
	}
	return fmt.Sprintf(", a multiple of %d", m)
}

// WithDefaults is k with its zero knobs at [DefaultKnobs]'.
func (k Knobs) WithDefaults() Knobs {
	d := DefaultKnobs
	for i, p := range k.fields() {
		if *p == 0 {
			*p = *d.fields()[i]
		}
	}
	return k
}

// String writes k's knobs that are set as ParseKnobs reads them.
func (k Knobs) String() string {
	var parts []string
	for i, p := range k.fields() {
		if *p != 0 {
			parts = append(parts, fmt.Sprintf("%s=%d", knobBounds[i].name, *p))
		}
	}
	return strings.Join(parts, ",")
}
