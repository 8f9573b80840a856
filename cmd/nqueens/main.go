// Nqueens counts the solutions of the n-queens problem on every CPU core.
//
// Usage:
//
//	nqueens count N [--method auto|join|sym|mirror] [-j WORKERS] [--json] [--verify] [--memory SIZE] [--piece P] [--torus]
//	nqueens table FROM TO [--format text|csv|json|markdown|bfile] [--seq total|unique|point|rot90] [--memory SIZE]
//	nqueens merge FILES... | status FILES...
//	nqueens bench | list N | solve N | verify
//	nqueens version
//
// "nqueens COMMAND --help" describes each command and its flags. The
// command is the library github.com/nqueens/nqueens with flags: it
// defines the commands and prints; the values of its flags, the wording
// of errors, the exit codes and the stop signals are internal/cli's, and
// every run is the library's.
//
// Exit codes: 0 success, 1 failure (including a failed --verify or a
// failed write), 2 bad input or usage, 130 interrupted by SIGINT, 138 by
// SIGUSR1, 143 by SIGTERM.
package main

import (
	"context"
	"os"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
)

func main() {
	os.Exit(mainCode())
}

// mainCode runs the command with the process's arguments and signals and
// returns its exit code.
func mainCode() int {
	ctx, stop := cli.WithSignals(context.Background())
	defer stop()
	return cli.ExitCode(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr)
}
