package cli

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// FlagError rewords pflag's errors (cobra's SetFlagErrorFunc): a
// negative board size such as "-3" looks like a flag to it, "-json" reads
// as -j with the value "son", and its "invalid argument" carries Go's
// parser messages where a user wants what the flag accepts.
func FlagError(cmd *cobra.Command, err error) error {
	text := err.Error()
	if i := strings.Index(text, " in -"); strings.HasPrefix(text, "unknown shorthand flag") && i >= 0 {
		arg := text[i+len(" in "):]
		if _, convErr := strconv.Atoi(arg); convErr == nil {
			largest := nqueens.MaxN
			if cmd != nil && cmd.Name() == "solve" {
				largest = partition.MaxSolveN
			}
			return Usagef("board size %s out of range (accepted: %s)", arg, partition.SizeAccepted(largest))
		}
	}
	if name, ok := strings.CutPrefix(text, "unknown flag: "); ok {
		if s := Suggest(cmd, name); s != "" {
			return Usagef("unknown flag: %s (did you mean %s? see --help)", name, s)
		}
		return Usagef("unknown flag: %s (see --help)", name)
	}
	if strings.Contains(text, `for "-j, --workers" flag`) && strings.Contains(text, `"son"`) {
		return Usagef("%v (did you mean --json?)", err)
	}
	if m := invalidArg.FindStringSubmatch(text); m != nil {
		accepted := map[string]string{
			"duration": "a duration such as 30s, 2m or 1h30m",
			"int":      "an integer",
			"int64":    "an integer",
			"uint":     "a whole number",
			"uint64":   "a whole number",
			"float64":  "a number such as 0.01",
			"bool":     "true or false",
		}[flagType(cmd, m[2])]
		if accepted != "" {
			return Usagef("invalid %s %s (accepted: %s)", m[2], msg.Quote(m[1]), accepted)
		}
	}
	return Usagef("%v (see --help)", err)
}

// invalidArg matches pflag's message for a value its parser refused: the
// value and the flag's names.
var invalidArg = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-., )?(--[a-z-]+)" flag`)

// flagType is the type of cmd's flag named "--name".
func flagType(cmd *cobra.Command, name string) string {
	if cmd == nil {
		return ""
	}
	if f := cmd.Flags().Lookup(strings.TrimPrefix(name, "--")); f != nil {
		return f.Value.Type()
	}
	return ""
}

// ExactArgs is cobra.ExactArgs with a message that names what is expected.
func ExactArgs(k int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != k {
			if lo, hi, ok := sizes(args); ok && k == 1 && len(args) > 1 && cmd.Name() == "count" {
				return Usagef("%s takes %s, got %d arguments (did you mean nqueens table %d %d? it prints a row per board size)", cmd.Name(), what, len(args), lo, hi)
			}
			return Usagef("%s takes %s, got %d arguments (see --help)", cmd.Name(), what, len(args))
		}
		return nil
	}
}

// sizes reports whether every argument is a board size, with the least
// and the largest.
func sizes(args []string) (lo, hi int, ok bool) {
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || partition.CheckSize(n, nqueens.MaxN) != nil {
			return 0, 0, false
		}
		if i == 0 || n < lo {
			lo = n
		}
		if i == 0 || n > hi {
			hi = n
		}
	}
	return lo, hi, len(args) > 0
}

// MinArgs requires at least one argument, with the message given.
func MinArgs(message string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return Usagef("%s", message)
		}
		return nil
	}
}

// CheckChoice refuses a flag value outside the accepted list.
func CheckChoice(flag, value string, accepted []string) error {
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return Usagef("unknown %s %q (accepted: %s)", flag, value, strings.Join(accepted, ", "))
}

// CheckEmpty refuses flags given an empty value: "--shard ”" is a
// mistake, not a request for the default.
func CheckEmpty(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed && fl.Value.String() == "" {
			return Usagef("--%s needs a value (see --help)", name)
		}
	}
	return nil
}

// ParseN parses a board size argument, 0..largest.
func ParseN(s string, largest int) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, Usagef("board size %s is not an integer (accepted: %s)", msg.Quote(s), partition.SizeAccepted(largest))
	}
	if partition.CheckSize(n, largest) != nil {
		return 0, Usagef("board size %d out of range (accepted: %s)", n, partition.SizeAccepted(largest))
	}
	return n, nil
}
