package machine

import (
	"runtime"
	"testing"
)

// TestCores: the CPUs this process may use come first; cpuid's counts
// are shown as the machine's only where they agree with them, and as the
// host's where they do not (a VM of 2 CPUs whose hypervisor reports 254).
func TestCores(t *testing.T) {
	for _, tc := range []struct {
		m     Machine
		agree bool
		want  string
	}{
		{Machine{CPUs: 2, PhysicalCores: 2, LogicalCores: 2}, true, "2 CPUs this process may use, 2 physical cores, 2 logical"},
		{Machine{CPUs: 2, PhysicalCores: 254, LogicalCores: 254}, false, "2 CPUs this process may use; cpuid reads 254 logical cores, 254 physical: the host's topology, not this process's"},
		{Machine{CPUs: 1, PhysicalCores: 8, LogicalCores: 16}, false, "1 CPU this process may use; cpuid reads 16 logical cores, 8 physical: the host's topology, not this process's"},
		{Machine{CPUs: 4}, true, "4 CPUs this process may use"},
	} {
		if got := tc.m.Cores(); got != tc.want {
			t.Errorf("Cores() = %q, want %q", got, tc.want)
		}
		if got := tc.m.Agree(); got != tc.agree {
			t.Errorf("%+v: Agree() = %v, want %v", tc.m, got, tc.agree)
		}
	}
	if m := Detect(); m.CPUs != runtime.NumCPU() {
		t.Errorf("Detect().CPUs = %d, want runtime.NumCPU() = %d", m.CPUs, runtime.NumCPU())
	}
}
