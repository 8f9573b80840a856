package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/opencl"
	"github.com/nqueens/nqueens/internal/version"
)

func versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, the Go version, the detected CPU and the OpenCL devices",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v := version.Version
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
				v += " (module " + bi.Main.Version + ")"
			}
			if c := version.Commit(); c != "" {
				v += " (commit " + c + ")"
			}
			m := machine.Detect()
			devices := "none (no OpenCL device)"
			switch infos, err := opencl.Devices(); {
			case err != nil:
				devices = "none (" + err.Error() + ")"
			case len(infos) > 0:
				var names []string
				for _, d := range infos {
					names = append(names, fmt.Sprintf("opencl:%d %s", d.Index, d))
				}
				devices = strings.Join(names, "; ")
			}
			return writeLine(cmd.OutOrStdout(), fmt.Sprintf("nqueens %s\ngo: %s %s/%s\ncpu: %s (%s; %s; %s by default)\ndevices: %s",
				v, runtime.Version(), runtime.GOOS, runtime.GOARCH, m.CPU, m.Vendor, m.Cores(), report.Plural(engine.DefaultWorkers(), "worker"), devices))
		},
	}
}
