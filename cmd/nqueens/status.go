package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

func statusCmd() *cobra.Command {
	var asJSON, perShard bool
	var audit cli.AuditFlags
	cmd := &cobra.Command{
		Use:     "status FILE|DIR...",
		Short:   "Report on a count in progress from its journals and shard files",
		Long:    longHelp("status"),
		Example: "  nqueens status n22-*.journal n22-*.result\n  nqueens status n28-join/\n  nqueens status --json shard*.journal",
		Args:    cli.MinArgs("status takes one or more shard files or journals (see --help)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			rep, err := cli.ReadFiles(cmd, args, audit, nqueens.Status)
			if err != nil {
				return err
			}
			if asJSON {
				return report.WriteJSON(cmd.OutOrStdout(), report.StatusOf(rep))
			}
			return report.WriteStatus(cmd.OutOrStdout(), rep, perShard)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&perShard, "per-shard", false, fmt.Sprintf("list every shard, one a line (by default from %d shards on only the summary: done, in progress and missing shards as ranges)", report.MaxShardLines))
	audit.Register(cmd.Flags())
	return cmd
}
