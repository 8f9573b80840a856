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
// command is the library github.com/nqueens/nqueens with flags: parsing,
// output formats and files are here, every run is the library's.
//
// Exit codes: 0 success, 1 failure (including a failed --verify or a
// failed write), 2 bad input or usage, 130 interrupted by SIGINT, 138 by
// SIGUSR1, 143 by SIGTERM.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/nqueens/nqueens"
)

// Exit codes.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130 // 128 + SIGINT
	exitUser1       = 138 // 128 + SIGUSR1 (Slurm's warning before a time limit)
	exitTerminated  = 143 // 128 + SIGTERM
)

func main() {
	os.Exit(mainCode())
}

// mainCode runs the command with the process's arguments and signals and
// returns its exit code.
func mainCode() int {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	// The first signal stops handing out tasks; a second one stops
	// waiting for the running ones.
	now := make(chan struct{})
	go func() {
		cancel(&signalError{sig: <-sigs})
		<-sigs
		close(now)
	}()
	err := run(context.WithValue(ctx, stopNowKey{}, (<-chan struct{})(now)), os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	return exitCode(err, os.Stderr)
}

// exitCode prints err, if any, as one line on stderr and returns the exit
// code it calls for.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	var sig *signalError
	var stopped *nqueens.StoppedError
	switch {
	case errors.As(err, &stopped) && errors.As(err, &sig):
		fmt.Fprintf(stderr, "nqueens: %v: %v; no count printed\n", sig, stopped)
		return signalExitCode(sig.sig)
	case errors.As(err, &sig):
		fmt.Fprintf(stderr, "nqueens: %s\n", err)
		return signalExitCode(sig.sig)
	}
	fmt.Fprintf(stderr, "nqueens: %s\n", message(err))
	var u *usageError
	if errors.As(err, &u) || errors.Is(err, nqueens.ErrInvalid) {
		return exitUsage
	}
	return exitFailure
}

// stopNowKey holds, in the context of run, a channel closed by a second
// stop signal.
type stopNowKey struct{}

// stopNow is the channel a second stop signal closes (nil in tests).
func stopNow(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(stopNowKey{}).(<-chan struct{})
	return ch
}

// message is err's message, with the library's options named by the
// flags that set them when it is about options.
func message(err error) string {
	var oe *nqueens.OptionError
	if !errors.As(err, &oe) {
		return err.Error()
	}
	var r *renamed
	if errors.As(err, &r) {
		return oe.Explain(func(option, value string) string {
			if name, ok := r.names[option]; ok {
				return name
			}
			return flagOf(option, value)
		})
	}
	return oe.Explain(flagOf)
}

// renamed is an error of a command that sets an option by another flag
// than the usual one: names maps the option to its words.
type renamed struct {
	error
	names map[string]string
}

func (r *renamed) Unwrap() error { return r.error }

// optionFlags are the flags that set the library's options: the one place
// where the command words the library's rules.
var optionFlags = map[string]string{
	"WithMethod": "--method", "WithWorkers": "-j", "WithMemory": "--memory", "WithPiece": "--piece", "WithTorus": "--torus",
	"WithPlaced": "--place", "WithCheck": "--verify", "WithGrace": "--grace", "WithSample": "--sample",
	"WithShard": "--shard", "WithDevice": "--device", "WithShardFile": "--out", "WithJournalFile": "--checkpoint", "WithProgress": "--progress",
}

// flagOf names an option by its flag, with the value given ("-j 0").
func flagOf(option, value string) string {
	name, ok := optionFlags[option]
	switch {
	case option == "Square": // a placed square
		return value
	case !ok:
		name = option
	}
	if value == "" {
		return name
	}
	return name + " " + value
}

// signalError is the cause of a run cancelled by a signal.
type signalError struct{ sig os.Signal }

func (e *signalError) Error() string { return "interrupted by " + signalName(e.sig) }

// usageError marks an error in the command line or its values: exit 2.
// Every other error is a failure (exit 1), unless the library says the
// input was invalid.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return &usageError{err: fmt.Errorf(format, args...)}
}

// interrupted turns a cancelled run into the error that reports it.
func interrupted(ctx context.Context, what string) error {
	cause := context.Cause(ctx)
	var sig *signalError
	if errors.As(cause, &sig) {
		return fmt.Errorf("%w: %s", sig, what)
	}
	return fmt.Errorf("%s: %w", what, cause)
}
