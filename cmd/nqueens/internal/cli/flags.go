package cli

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// FlagError rewords pflag's errors (cobra's SetFlagErrorFunc): a
// negative board size such as "-3" looks like a flag to it, "-json" reads
// as -j with the value "son", and its "invalid argument" carries Go's
// parser messages where a user wants what the flag accepts.
func FlagError(cmd *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	switch {
	case errors.As(err, &unknown) && unknown.GetSpecifiedShortnames() != "":
		arg := "-" + unknown.GetSpecifiedShortnames()
		if _, convErr := strconv.Atoi(arg); convErr == nil {
			largest := nqueens.MaxN
			if cmd != nil && cmd.Name() == "solve" {
				largest = board.MaxSolveN
			}
			return Usagef("board size %s out of range (accepted: %s)", arg, board.SizeAccepted(largest))
		}
	case errors.As(err, &unknown):
		name := "--" + unknown.GetSpecifiedName()
		if s := Suggest(cmd, name); s != "" {
			return Usagef("unknown flag: %s (did you mean %s? see --help)", name, s)
		}
		return Usagef("unknown flag: %s (see --help)", name)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		if f.Name == "workers" && invalid.GetValue() == "son" {
			return Usagef("%v (did you mean --json?)", err)
		}
		accepted := map[string]string{
			"duration": "a duration such as 30s, 2m or 1h30m",
			"int":      "an integer",
			"int64":    "an integer",
			"uint":     "a whole number",
			"uint64":   "a whole number",
			"float64":  "a number such as 0.01",
			"bool":     "true or false",
		}[f.Value.Type()]
		if accepted != "" {
			return Usagef("invalid --%s %s (accepted: %s)", f.Name, msg.Quote(invalid.GetValue()), accepted)
		}
	}
	return Usagef("%v (see --help)", err)
}

// ExactArgs is cobra.ExactArgs with a message that names what is expected.
func ExactArgs(k int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != k {
			if lo, hi, ok := sizes(args); ok && k == 1 && len(args) > 1 && cmd.Name() == "count" {
				return Usagef("%s takes %s, got %s (did you mean nqueens table %d %d? it prints a row per board size)", cmd.Name(), what, report.Plural(len(args), "argument"), lo, hi)
			}
			return Usagef("%s takes %s, got %s (see --help)", cmd.Name(), what, report.Plural(len(args), "argument"))
		}
		return nil
	}
}

// sizes reports whether every argument is a board size, with the least
// and the largest.
func sizes(args []string) (lo, hi int, ok bool) {
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil || board.CheckSize(n, nqueens.MaxN) != nil {
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
	return Usagef("unknown --%s %q (accepted: %s)", flag, value, strings.Join(accepted, ", "))
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
		return 0, Usagef("board size %s is not an integer (accepted: %s)", msg.Quote(s), board.SizeAccepted(largest))
	}
	if board.CheckSize(n, largest) != nil {
		return 0, Usagef("board size %d out of range (accepted: %s)", n, board.SizeAccepted(largest))
	}
	return n, nil
}
