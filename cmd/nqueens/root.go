package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/version"
)

// run is the whole command: it parses args, runs the subcommand (reading
// stdin where one reads input) and returns its error for [cli.ExitCode].
// Tests call it directly.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	started := false // set once flags and arguments are parsed
	root := &cobra.Command{
		Use:           "nqueens",
		Short:         "Count the solutions of the n-queens problem on every CPU core",
		Long:          longHelp("root"),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		PersistentPreRun: func(*cobra.Command, []string) {
			started = true
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				if s := cli.SuggestCommand(cmd, args[0]); s != "" {
					return cli.Usagef("unknown command %q (did you mean %s? commands: %s)", args[0], s, cli.CommandNames(cmd))
				}
				return cli.Usagef("unknown command %q (commands: %s; see --help)", args[0], cli.CommandNames(cmd))
			}
			return cmd.Help()
		},
	}
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetContext(ctx)
	root.SetFlagErrorFunc(cli.FlagError)
	// --version prints the version line alone ('nqueens version' adds Go
	// and the CPU); 'nqueens completion bash|zsh|fish|powershell' writes a
	// shell's completion script.
	root.Version = version.Version
	root.SetVersionTemplate("nqueens {{.Version}}\n")
	// 'help TOPIC' of no command is an error naming the nearest, as an
	// unknown command is (cobra's own printed the root help, exit 0).
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [COMMAND]",
		Short: "Help about any command",
		RunE: func(cmd *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || target == nil || len(rest) > 0 || (target == root && len(args) > 0) {
				topic := strings.Join(args, " ")
				if s := cli.SuggestCommand(root, args[0]); s != "" {
					return cli.Usagef("unknown help topic %q (did you mean nqueens help %s?)", topic, s)
				}
				return cli.Usagef("unknown help topic %q (commands: %s)", topic, cli.CommandNames(root))
			}
			return target.Help()
		},
	})
	root.AddCommand(countCmd(), planCmd(), mergeCmd(), statusCmd(), tableCmd(), benchCmd(), solveCmd(), listCmd(), verifyCmd(), versionCmd(), devicesCmd(), manCmd())
	err := root.ExecuteContext(ctx)
	if !started {
		err = cli.Usage(err) // from parsing the command line
	}
	return err
}
