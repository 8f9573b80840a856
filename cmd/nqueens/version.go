package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/machine"
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
			switch infos, err := backend.All(); {
			case len(infos) > 0:
				var names []string
				for _, d := range infos {
					names = append(names, d.Spec()+" "+d.Name)
				}
				devices = strings.Join(names, "; ")
			case err != nil:
				devices = "none (" + err.Error() + ")"
			}
			return writeLine(cmd.OutOrStdout(), fmt.Sprintf("nqueens %s\ngo: %s %s/%s\ncpu: %s (%s; %s; %s by default)\ndevices: %s",
				v, runtime.Version(), runtime.GOOS, runtime.GOARCH, m.CPU, m.Vendor, m.Cores(), report.Plural(engine.DefaultWorkers(), "worker"), devices))
		},
	}
}
