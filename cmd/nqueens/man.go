package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens/internal/version"
)

// manDir is where the committed man pages live; TestManPages checks that
// they are what 'nqueens man' writes now.
const manDir = "docs/man"

// manCmd writes a man page per command from the commands' own help texts
// and flags, so that none drifts from them. Hidden: it is for packagers
// and for keeping docs/man current (go run ./cmd/nqueens man docs/man).
func manCmd() *cobra.Command {
	var readme string
	cmd := &cobra.Command{
		Use:    "man DIR",
		Short:  "Write a man page per command into DIR (section 1)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if readme != "" {
				return updateReadme(readme, commandTable(cmd.Root()))
			}
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
	cmd.Flags().StringVar(&readme, "readme", "", "rewrite the command table in this README (between its markers) instead")
	return cmd
}

// The README's command table lies between these lines.
const (
	tableStart = "<!-- commands: written by go run ./cmd/nqueens man --readme README.md . -->"
	tableEnd   = "<!-- end of commands -->"
)

// commandTable is the README's table of commands: each command, what it
// does and its flags, from the commands themselves.
func commandTable(root *cobra.Command) string {
	var b strings.Builder
	b.WriteString("| command | what it does | flags |\n|---|---|---|\n")
	for _, c := range root.Commands() {
		if !c.IsAvailableCommand() || c.Name() == "help" {
			continue
		}
		var flags []string
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			flags = append(flags, "`--"+f.Name+"`")
		})
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.UseLine(), c.Short, strings.Join(flags, " "))
	}
	return b.String()
}

// updateReadme replaces the command table of the README at path.
func updateReadme(path, table string) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(old, []byte(tableStart)), bytes.Index(old, []byte(tableEnd))
	if i < 0 || j < i {
		return fmt.Errorf("%s has no command table between %q and %q", path, tableStart, tableEnd)
	}
	out := append(append(append([]byte(nil), old[:i+len(tableStart)]...), "\n"+table...), old[j:]...)
	return os.WriteFile(path, out, 0o644)
}
