package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/machine"
)

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the Go version and the detected CPU",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := nqueens.Version()
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v += " (module " + bi.Main.Version + ")"
			}
			m := machine.Detect()
			return writeLine(cmd.OutOrStdout(), fmt.Sprintf("nqueens %s\ngo: %s %s/%s\ncpu: %s (%s; %d physical cores, %d logical, %d workers by default)",
				v, runtime.Version(), runtime.GOOS, runtime.GOARCH, m.CPU, m.Vendor, m.PhysicalCores, m.LogicalCores, engine.DefaultWorkers()))
		},
	}
}
