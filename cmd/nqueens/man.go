package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/nqueens/nqueens/internal/version"
)

// manDir is where the committed man pages live; TestManPages checks that
// they are what 'nqueens man' writes now.
const manDir = "docs/man"

// manCmd writes a man page per command from the commands' own help texts
// and flags, so that none drifts from them. Hidden: it is for packagers
// and for keeping docs/man current (go run ./cmd/nqueens man docs/man).
func manCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "man DIR",
		Short:  "Write a man page per command into DIR (section 1)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := os.MkdirAll(args[0], 0o755); err != nil {
				return err
			}
			root := cmd.Root()
			root.DisableAutoGenTag = true // no date: the pages are reproducible
			date := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
			header := &doc.GenManHeader{Title: "NQUEENS", Section: "1", Source: "nqueens " + version.Version, Manual: "nqueens manual", Date: &date}
			if err := doc.GenManTree(root, header, args[0]); err != nil {
				return fmt.Errorf("writing the man pages: %w", err)
			}
			return nil
		},
	}
}
