package main

import (
	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
)

// manCmd writes a man page per command from the commands' own help texts
// and flags, or the README's table of commands. Hidden: it is for
// packagers and for keeping docs/man and the README current
// (go run ./cmd/nqueens man docs/man).
func manCmd() *cobra.Command {
	var readme string
	cmd := &cobra.Command{
		Use:    "man DIR",
		Short:  "Write a man page per command into DIR (section 1)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if readme != "" {
				return cli.UpdateReadme(readme, cli.CommandTable(cmd.Root()))
			}
			return cli.WriteMan(cmd.Root(), args[0])
		},
	}
	cmd.Flags().StringVar(&readme, "readme", "", "rewrite the command table in this README (between its markers) instead")
	return cmd
}
