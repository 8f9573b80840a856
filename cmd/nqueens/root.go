package main

import (
	"context"
	"errors"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/version"
	"github.com/nqueens/nqueens/partition"
)

// run is the whole command: it parses args, runs the subcommand (reading
// stdin where one reads input) and returns its error for [exitCode]. Tests
// call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	started := false // set once flags and arguments are parsed
	root := &cobra.Command{
		Use:   "nqueens",
		Short: "Count the solutions of the n-queens problem on every CPU core",
		Long: `nqueens counts the ways to place n queens on an n×n board so that no two
attack each other, using every CPU core.

Exit codes: 0 success, 1 failure, 2 bad input or usage,
130 interrupted (SIGINT), 138 SIGUSR1, 143 terminated (SIGTERM).`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		PersistentPreRun: func(*cobra.Command, []string) {
			started = true
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q (commands: count, plan, merge, status, table, bench, solve, list, verify, devices, version, completion; see --help)", args[0])
			}
			return cmd.Help()
		},
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetContext(ctx)
	root.SetFlagErrorFunc(flagError)
	// --version prints the version line alone ('nqueens version' adds Go
	// and the CPU); 'nqueens completion bash|zsh|fish|powershell' writes a
	// shell's completion script.
	root.Version = version.Version
	root.SetVersionTemplate("nqueens {{.Version}}\n")
	root.AddCommand(countCmd(), planCmd(), mergeCmd(), statusCmd(), tableCmd(), benchCmd(), solveCmd(), listCmd(), verifyCmd(), versionCmd(), devicesCmd(), manCmd())
	err := root.ExecuteContext(ctx)
	if err != nil && !started {
		var u *usageError
		if !errors.As(err, &u) {
			err = &usageError{err: err} // from parsing the command line
		}
	}
	return err
}

// flagError rewords pflag's errors: a negative board size such as "-3"
// looks like a flag to it, and "-json" reads as -j with the value "son".
func flagError(cmd *cobra.Command, err error) error {
	msg := err.Error()
	if i := strings.Index(msg, " in -"); strings.HasPrefix(msg, "unknown shorthand flag") && i >= 0 {
		arg := msg[i+len(" in "):]
		if _, convErr := strconv.Atoi(arg); convErr == nil {
			largest := nqueens.MaxN
			if cmd != nil && cmd.Name() == "solve" {
				largest = partition.MaxSolveN
			}
			return usagef("board size %s out of range (accepted: 0..%d)", arg, largest)
		}
	}
	if strings.Contains(msg, `for "-j, --workers" flag`) && strings.Contains(msg, `"son"`) {
		return usagef("%v (did you mean --json?)", err)
	}
	// pflag's "invalid argument" carries Go's parser messages: say what
	// the flag accepts instead.
	if m := invalidArg.FindStringSubmatch(msg); m != nil {
		accepted := map[string]string{
			"time.Duration": "a duration such as 30s, 2m or 1h30m",
			"int":           "an integer",
			"int64":         "an integer",
			"uint":          "a whole number",
			"uint64":        "a whole number",
			"float64":       "a number such as 0.01",
			"bool":          "true or false",
		}[flagType(cmd, m[2])]
		if accepted != "" {
			return usagef("invalid %s %s (accepted: %s)", m[2], quoteArg(m[1]), accepted)
		}
	}
	return usagef("%v (see --help)", err)
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
		if f.Value.Type() == "duration" {
			return "time.Duration"
		}
		return f.Value.Type()
	}
	return ""
}

// quoteArg quotes a command-line value for a message, cut to a readable
// length.
func quoteArg(s string) string { return msg.Quote(s) }

// parseN parses a board size argument.
func parseN(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, usagef("board size %s is not an integer (accepted: 0..%d)", msg.Quote(s), nqueens.MaxN)
	}
	if n < 0 || n > nqueens.MaxN {
		return 0, usagef("board size %d out of range (accepted: 0..%d)", n, nqueens.MaxN)
	}
	return n, nil
}

// exactArgs is cobra.ExactArgs with a message that names what is expected.
func exactArgs(k int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != k {
			return usagef("%s takes %s, got %d arguments (see --help)", cmd.Name(), what, len(args))
		}
		return nil
	}
}

// workersFlag adds -j/--workers to fs.
func workersFlag(fs *pflag.FlagSet, p *int) {
	fs.IntVarP(p, "workers", "j", 0, "tasks run at once (default: the CPUs this process may use: affinity and cgroup quota, at most the logical cores cpuid detects)")
}

// checkChoice rejects a flag value outside the accepted list.
func checkChoice(flag, value string, accepted []string) error {
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return usagef("unknown %s %q (accepted: %s)", flag, value, strings.Join(accepted, ", "))
}
