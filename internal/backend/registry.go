package backend

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A back end registers itself here, from an init function ([Register]):
// the name its devices go by in a device spec, how to list them and how
// to open one. The library opens devices through [Select] and
// [Kind.Open], the command lists them through [All], and neither names a
// back end: the library's build imports the back ends it ships
// (backends.go in the root package).

// Info is a device as its back end lists it.
type Info struct {
	// Kind is its back end's name ("opencl"), Index its place in the
	// back end's list: the spec Kind:Index names it.
	Kind  string `json:"kind"`
	Index int    `json:"index"`
	// Name names it in one line, as the opened device's Name does.
	Name string `json:"name"`
	// Type is "gpu", "cpu" (a runtime that runs on the CPU, such as pocl)
	// or "other"; a spec naming the back end alone picks its first GPU,
	// else its first device.
	Type string `json:"type"`
	// Vendor, ComputeUnits, ClockMHz, Memory (bytes), Version (the
	// device's, of its API), Driver and Platform describe it for
	// 'nqueens devices' (empty or 0 where the back end cannot tell).
	Vendor       string `json:"vendor"`
	ComputeUnits int    `json:"compute_units"`
	ClockMHz     int    `json:"clock_mhz"`
	Memory       uint64 `json:"memory_bytes"`
	Version      string `json:"version"`
	Driver       string `json:"driver_version"`
	Platform     string `json:"platform"`
	// Detail is the back end's own record of it ('nqueens devices
	// --json' writes it in the Info's place where it is set), and what
	// its Open takes back.
	Detail any `json:"-"`
}

// Spec is the device spec that names the device: "kind:index".
func (i Info) Spec() string { return i.Kind + ":" + strconv.Itoa(i.Index) }

// OnCPU reports whether the device runs on the CPU.
func (i Info) OnCPU() bool { return i.Type == "cpu" }

// Opened is an opened device: closed once its runs are done.
type Opened interface {
	Device
	Close() error
}

// Kind is a back end as it registers itself.
type Kind struct {
	// Name is what device specs call its devices: Name, Name:N,
	// Name:all. Lower-case letters and digits, beginning with a letter;
	// not "cpu" or "all".
	Name string
	// Devices lists its devices, each Info's Index its place in the
	// list: none (nil, no error) where its runtime has no device, an
	// error where the runtime cannot be loaded.
	Devices func() ([]Info, error)
	// Open opens one of the devices Devices listed.
	Open func(Info) (Opened, error)
	// NoDevice says, where Devices lists none, what would give one (for
	// example the package to install).
	NoDevice string
}

var (
	regMu sync.Mutex
	kinds []Kind // sorted by name
)

// Register adds a back end. It panics where the name is taken or not a
// valid one: a programming error, found at start.
func Register(k Kind) {
	regMu.Lock()
	defer regMu.Unlock()
	if !validName(k.Name) || k.Devices == nil || k.Open == nil {
		panic(fmt.Sprintf("backend: Register(%q): a name of lower-case letters and digits (not cpu or all), Devices and Open are needed", k.Name))
	}
	i, found := slices.BinarySearchFunc(kinds, k.Name, func(a Kind, name string) int { return strings.Compare(a.Name, name) })
	if found {
		panic(fmt.Sprintf("backend: Register(%q): registered twice", k.Name))
	}
	kinds = slices.Insert(kinds, i, k)
}

// Unregister removes a back end registered under name (a test's back
// end, once the test ends).
func Unregister(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	kinds = slices.DeleteFunc(kinds, func(k Kind) bool { return k.Name == name })
}

func validName(s string) bool {
	if s == "" || s == "cpu" || s == "all" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789") == ""
}

// Kinds returns the registered back ends, by name.
func Kinds() []Kind {
	regMu.Lock()
	defer regMu.Unlock()
	return slices.Clone(kinds)
}

// Lookup returns the back end of a name.
func Lookup(name string) (Kind, bool) {
	for _, k := range Kinds() {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Specs words the device specs accepted, for messages: "cpu, opencl,
// opencl:N, opencl:all or all".
func Specs() string {
	words := []string{"cpu"}
	for _, k := range Kinds() {
		words = append(words, k.Name, k.Name+":N", k.Name+":all")
	}
	return strings.Join(words, ", ") + " or all"
}

// ValidSpec reports whether spec is one a device spec may be: "all", a
// back end's name, or its name and ":all" or ":N" (decimal digits alone,
// up to 4). "cpu" is the library's, not a device's.
func ValidSpec(spec string) bool {
	if spec == "all" {
		return true
	}
	name, arg, _ := strings.Cut(spec, ":")
	if _, ok := Lookup(name); !ok {
		return false
	}
	return !strings.Contains(spec, ":") || arg == "all" || arg != "" && len(arg) <= 4 && strings.Trim(arg, "0123456789") == ""
}

// All lists every back end's devices, back end by back end; a back end
// whose runtime cannot be loaded is left out, its error joined into err
// (nil where every back end listed).
func All() (infos []Info, err error) {
	var errs []error
	for _, k := range Kinds() {
		list, e := k.Devices()
		if e != nil {
			errs = append(errs, e)
			continue
		}
		infos = append(infos, list...)
	}
	return infos, errors.Join(errs...)
}

// Select returns the devices a spec names (ValidSpec): "all" every device
// of every back end (an error where there is none), a back end's name its
// first GPU (else its first device), name:N its device N, name:all all of
// them.
func Select(spec string) ([]Info, error) {
	if spec == "all" {
		infos, err := All()
		if len(infos) == 0 {
			if err == nil {
				err = fmt.Errorf("no device (%s)", noDevice())
			}
			return nil, err
		}
		return infos, nil
	}
	name, arg, _ := strings.Cut(spec, ":")
	k, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("no back end %q (accepted: %s)", name, Specs())
	}
	all, err := k.Devices()
	if err != nil {
		return nil, err
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("%s has no device (%s)", name, k.NoDevice)
	}
	switch arg {
	case "":
		for _, d := range all {
			if d.Type == "gpu" {
				return []Info{d}, nil
			}
		}
		return all[:1], nil
	case "all":
		return all, nil
	}
	i, err := strconv.Atoi(arg)
	if err != nil || i < 0 || i >= len(all) {
		if len(all) == 1 {
			return nil, fmt.Errorf("no %s device %s: there is one, %s:0 ('nqueens devices' lists it)", name, arg, name)
		}
		return nil, fmt.Errorf("no %s device %s: there are %d, %s:0 to %s:%d ('nqueens devices' lists them)", name, arg, len(all), name, name, len(all)-1)
	}
	return all[i : i+1], nil
}

// noDevice is what each back end says would give a device.
func noDevice() string {
	var says []string
	for _, k := range Kinds() {
		says = append(says, k.Name+": "+k.NoDevice)
	}
	if len(says) == 0 {
		return "this build has no device back end"
	}
	return strings.Join(says, "; ")
}
