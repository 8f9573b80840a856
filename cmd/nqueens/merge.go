package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
)

func mergeCmd() *cobra.Command {
	var asJSON bool
	var audit cli.AuditFlags
	cmd := &cobra.Command{
		Use:     "merge FILE|DIR...",
		Short:   "Combine shard result files and journals into the final count",
		Long:    longHelp("merge"),
		Example: "  nqueens merge shard*.result\n  nqueens merge n28-join/\n  nqueens merge --json n20-*.result n20-7.journal\n  nqueens merge --audit 0.01 n22-*.result",
		Args:    cli.MinArgs("merge takes one or more shard files or journals (see --help)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := cli.ReadFiles(cmd, args, audit, nqueens.Merge)
			if err != nil {
				return err
			}
			for _, note := range c.Notes {
				fmt.Fprintf(cmd.ErrOrStderr(), "nqueens: note: %s\n", note)
			}
			if asJSON {
				rep := report.Of(c)
				rep.Files = args
				return report.WriteJSON(cmd.OutOrStdout(), rep)
			}
			return writeLine(cmd.OutOrStdout(), c.Total.String())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the total alone")
	audit.Register(cmd.Flags())
	return cmd
}
