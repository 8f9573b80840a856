package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/klauspost/cpuid/v2"
	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/engine"
)

// version is the tool's version; release builds may set it with
// -ldflags "-X main.version=…".
var version = "0.1.0"

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the Go version and the detected CPU",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := cmd.OutOrStdout()
			v := version
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v += " (module " + bi.Main.Version + ")"
			}
			fmt.Fprintf(w, "nqueens %s\n", v)
			fmt.Fprintf(w, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
			_, err := fmt.Fprintf(w, "cpu: %s\n", cpuLine())
			return err
		},
	}
}

// cpuLine describes the CPU as cpuid sees it.
func cpuLine() string {
	return fmt.Sprintf("%s (%s; %d physical cores, %d logical, %d workers by default)",
		cpuBrand(), orUnknown(cpuid.CPU.VendorString), cpuid.CPU.PhysicalCores, cpuid.CPU.LogicalCores, engine.DefaultWorkers())
}

// cpuBrand is the CPU's brand string, or "unknown".
func cpuBrand() string { return orUnknown(cpuid.CPU.BrandName) }

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
