// Package machine identifies the machine a count or a benchmark runs on:
// the CPU (github.com/klauspost/cpuid) and the Go runtime.
package machine

import (
	"fmt"
	"runtime"
	"strconv"

	"github.com/klauspost/cpuid/v2"
)

// Machine describes this machine: the CPUs this process may use, as the
// operating system says, the CPU as cpuid detects it, and Go. In a
// virtual machine cpuid may read the host's or the hypervisor's topology
// (254 cores on a VM of 2): [Machine.Cores] says which figure is which.
type Machine struct {
	CPU            string   `json:"cpu"`
	Vendor         string   `json:"vendor"`
	CPUs           int      `json:"cpus"` // the logical CPUs this process may use (its affinity)
	PhysicalCores  int      `json:"physical_cores"`
	LogicalCores   int      `json:"logical_cores"`
	ThreadsPerCore int      `json:"threads_per_core"`
	Caches         []string `json:"caches"`
	Features       []string `json:"features"`
	X86Level       string   `json:"x86_64_level"`
	Go             string   `json:"go"`
	GOOS           string   `json:"goos"`
	GOARCH         string   `json:"goarch"`
	GOMAXPROCS     int      `json:"gomaxprocs"`
}

// Detect describes this machine.
func Detect() Machine {
	c := cpuid.CPU
	m := Machine{
		CPU: OrUnknown(c.BrandName), Vendor: OrUnknown(c.VendorString), CPUs: runtime.NumCPU(),
		PhysicalCores: c.PhysicalCores, LogicalCores: c.LogicalCores, ThreadsPerCore: c.ThreadsPerCore,
		Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, GOMAXPROCS: runtime.GOMAXPROCS(0),
		X86Level: "unknown",
	}
	for _, cache := range []struct {
		name string
		size int
	}{{"L1d", c.Cache.L1D}, {"L1i", c.Cache.L1I}, {"L2", c.Cache.L2}, {"L3", c.Cache.L3}} {
		s := "unknown"
		if cache.size > 0 {
			s = byteSize(cache.size)
		}
		m.Caches = append(m.Caches, cache.name+" "+s)
	}
	for _, feat := range []struct {
		name string
		id   cpuid.FeatureID
	}{{"POPCNT", cpuid.POPCNT}, {"BMI2", cpuid.BMI2}, {"AVX2", cpuid.AVX2}} {
		v := "no"
		switch {
		case c.VendorID == cpuid.VendorUnknown && c.BrandName == "":
			v = "unknown"
		case c.Supports(feat.id):
			v = "yes"
		}
		m.Features = append(m.Features, feat.name+" "+v)
	}
	if l := c.X64Level(); l > 0 {
		m.X86Level = "x86-64-v" + strconv.Itoa(l)
	}
	return m
}

// Agree reports whether cpuid's logical cores are the CPUs this process
// may use (or cpuid tells none).
func (m Machine) Agree() bool { return m.LogicalCores == 0 || m.LogicalCores == m.CPUs }

// Cores says how many CPUs this process may use and, where cpuid agrees,
// its physical and logical cores; where it does not (a virtual machine
// whose hypervisor reports its own topology, or a process held to some
// of the cores), what cpuid reads, marked as such.
func (m Machine) Cores() string {
	s := fmt.Sprintf("%d CPUs this process may use", m.CPUs)
	if m.CPUs == 1 {
		s = "1 CPU this process may use"
	}
	switch {
	case m.LogicalCores == 0:
	case m.Agree():
		s += fmt.Sprintf(", %d physical cores, %d logical", m.PhysicalCores, m.LogicalCores)
	default:
		s += fmt.Sprintf("; cpuid reads %d logical cores, %d physical: the host's topology, not this process's", m.LogicalCores, m.PhysicalCores)
	}
	return s
}

func byteSize(b int) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}

// OrUnknown is s, or "unknown" for an empty string.
func OrUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
