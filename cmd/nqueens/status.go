package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
)

func statusCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status FILE...",
		Short: "Report on a count in progress from its journals and shard files",
		Long: `status reads the journals and shard files of one count in progress (a
cluster run, or one machine's journal), with merge's checks except that
tasks may be missing, and prints per shard and in total: tasks counted of
those planned, the estimated share of the work done, which shards have no
file yet, and a rate and an ETA from the journals that record when they
started (the rate is averaged since then, pauses included).`,
		Example: "  nqueens status n22-*.journal n22-*.result\n  nqueens status --json shard*.journal",
		Args:    minArgs("status takes one or more shard files or journals (see --help)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withFiles(args, func(files []nqueens.File) error {
				rep, err := nqueens.Status(files...)
				if err != nil {
					return err
				}
				if asJSON {
					return writeJSON(cmd.OutOrStdout(), rep)
				}
				return writeStatus(cmd.OutOrStdout(), rep)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

func writeStatus(w io.Writer, r nqueens.StatusReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "count %d (%s), %d shards\n", r.N, r.Method, r.Shards)
	fmt.Fprintln(tw, "shard\ttasks\twork\tETA\tfiles")
	line := func(name string, s nqueens.ShardStatus) {
		eta := "-"
		switch {
		case s.Complete():
			eta = "done"
		case s.ETA > 0:
			eta = s.ETA.Round(time.Second).String()
		case len(s.Files) == 0 && name != "total":
			eta = "no file yet"
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f%%\t%s\t%s\n", name, s.TasksDone, s.Tasks, 100*s.Fraction(), eta, strings.Join(s.Files, " "))
	}
	for _, s := range r.PerShard {
		line(fmt.Sprint(s.Shard), s)
	}
	line("total", r.Total)
	if len(r.Missing) > 0 {
		ms := make([]string, len(r.Missing))
		for i, m := range r.Missing {
			ms[i] = fmt.Sprint(m)
		}
		fmt.Fprintf(tw, "shards with no file yet: %s\n", strings.Join(ms, ", "))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the status: %w", err)
	}
	return nil
}
