package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/report"
)

func mergeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge FILE...",
		Short: "Combine shard result files and journals into the final count",
		Long: `merge reads shard result files (count --out) and checkpoint journals
(count --checkpoint) of one count, in any order, and prints the total as
count does (--json too). It first checks that every file belongs to the
same plan (n, method, placed queens and the plan's fingerprint), that every
line's checksum is right, that no task is counted twice with different
counts (identical duplicates are reported and accepted), and that every
task of the plan is present (it lists the shards that are missing).
Any failed check is exit 1 and no count is printed.`,
		Example: "  nqueens merge shard*.result\n  nqueens merge --json n20-*.result n20-7.journal",
		Args:    minArgs("merge takes one or more shard files or journals (see --help)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withFiles(args, func(files []nqueens.File) error {
				c, err := nqueens.Merge(files...)
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
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object instead of the total alone")
	return cmd
}

// minArgs requires at least one argument.
func minArgs(msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usagef("%s", msg)
		}
		return nil
	}
}

// withFiles opens the files for the library and closes them after f.
func withFiles(paths []string, f func([]nqueens.File) error) error {
	files, closeAll, err := nqueens.OpenFiles(paths...)
	if err != nil {
		return err
	}
	defer closeAll()
	return f(files)
}
