package cli

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

// ManDir is where the committed man pages live (from the repository's
// root); the command's tests check that they are what [WriteMan] writes.
const ManDir = "docs/man"

// WriteMan writes a man page (section 1) per command of root into dir
// from the commands' own help texts and flags, so that none drifts from
// them. The pages carry a fixed date and no generation tag: they are
// reproducible.
func WriteMan(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root.DisableAutoGenTag = true
	date := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	header := &doc.GenManHeader{Title: "NQUEENS", Section: "1", Source: "nqueens " + version.Version, Manual: "nqueens manual", Date: &date}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return fmt.Errorf("writing the man pages: %w", err)
	}
	return nil
}

// The README's command table lies between these lines.
const (
	tableStart = "<!-- commands: written by go run ./cmd/nqueens man --readme README.md . -->"
	tableEnd   = "<!-- end of commands -->"
)

// CommandTable is the README's table of commands: each command, what it
// does and its flags, from the commands themselves.
func CommandTable(root *cobra.Command) string {
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

// CommandNames lists root's commands a user may run, "help" aside, as
// a message names them: "bench, completion, count, …".
func CommandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" {
			names = append(names, c.Name())
		}
	}
	return strings.Join(names, ", ")
}

// UpdateReadme replaces the command table of the README at path with
// table.
func UpdateReadme(path, table string) error {
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
