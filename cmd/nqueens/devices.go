package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/backend"
)

func devicesCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "devices",
		Short:   "List the OpenCL devices a count can run on",
		Long:    longHelp("devices"),
		Example: "  nqueens devices\n  nqueens devices --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			infos, err := backend.All()
			if err != nil && len(infos) == 0 {
				return err
			}
			if asJSON {
				records := []any{}
				for _, d := range infos {
					if d.Detail != nil {
						records = append(records, d.Detail) // the back end's own record
					} else {
						records = append(records, d)
					}
				}
				return report.WriteJSON(cmd.OutOrStdout(), records)
			}
			return writeDevices(cmd.OutOrStdout(), infos)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON array")
	return cmd
}

// writeDevices writes one line a device.
func writeDevices(w io.Writer, infos []backend.Info) error {
	if len(infos) == 0 {
		_, err := fmt.Fprintln(w, "no device (the OpenCL runtime has no platform with a device)")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "device\tname\tvendor\ttype\tunits\tclock\tmemory\tversion\tdriver\tplatform")
	for _, d := range infos {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d MHz\t%s\t%s\t%s\t%s\n", d.Spec(), d.Name, d.Vendor, d.Type, d.ComputeUnits, d.ClockMHz,
			humanize.IBytes(d.Memory), d.Version, d.Driver, d.Platform)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the devices: %w", err)
	}
	return nil
}
