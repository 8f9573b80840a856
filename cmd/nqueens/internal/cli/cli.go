// Package cli holds what the nqueens command decides beyond defining its
// flags and printing: the values the flags take (board sizes, --place,
// --memory, the shard a scheduler assigns), the library's errors worded
// with the flags that set its options, pflag's errors reworded, the exit
// codes and the stop signals. cmd/nqueens defines the commands with cobra
// and calls these; each has its tests here.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nqueens/nqueens"
)

// Exit codes.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2
	ExitInterrupted = 130 // 128 + SIGINT
	ExitUser1       = 138 // 128 + SIGUSR1 (Slurm's warning before a time limit)
	ExitTerminated  = 143 // 128 + SIGTERM
)

// ExitCode prints err, if any, as one line on stderr ("nqueens: ...",
// the library's options named by their flags) and returns the exit code
// it calls for: 2 for a usage error or input the library calls invalid,
// 128 + the signal's number for a run a signal stopped, 1 otherwise.
func ExitCode(err error, stderr io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var sig *SignalError
	var stopped *nqueens.StoppedError
	switch {
	case errors.As(err, &stopped) && errors.As(err, &sig):
		if stopped.Cause == nil { // the stop's own message names its cause otherwise
			fmt.Fprintf(stderr, "nqueens: %v: ", sig)
		} else {
			fmt.Fprint(stderr, "nqueens: ")
		}
		// The library's advice in the command's words: the same command
		// resumes from its journal; without one, --checkpoint keeps the work.
		text := strings.Replace(stopped.Error(), "count again with the same journal to resume", "run the same command again to resume", 1)
		var h *stopHint
		if stopped.Journal == "" && stopped.Done > 0 && errors.As(err, &h) {
			text += " (" + h.hint + ")"
		}
		fmt.Fprintf(stderr, "%s; no count printed\n", printable(text))
		return signalExitCode(sig.Sig)
	case errors.As(err, &sig):
		fmt.Fprintf(stderr, "nqueens: %s\n", printable(err.Error()))
		return signalExitCode(sig.Sig)
	}
	fmt.Fprintf(stderr, "nqueens: %s\n", printable(message(err)))
	var u *UsageError
	if errors.As(err, &u) || errors.Is(err, nqueens.ErrInvalid) {
		return ExitUsage
	}
	return ExitFailure
}

// printable is s with its control characters (a value's escape sequence,
// a newline that would make two lines of one) and invalid UTF-8 written
// as Go escapes (\x1b), so that an error is one line that shows what was
// given and cannot drive the terminal.
func printable(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) < 0 {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, "\\x%02x", s[0])
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[:size])
		}
		s = s[size:]
	}
	return b.String()
}

// UsageError marks an error in the command line or its values: exit 2.
// Every other error is a failure (exit 1), unless the library says the
// input was invalid.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef is a [UsageError] with a formatted message (%w wraps).
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// Usage marks err as a usage error unless it is one already (cobra's
// errors from parsing the command line).
func Usage(err error) error {
	var u *UsageError
	if err == nil || errors.As(err, &u) {
		return err
	}
	return &UsageError{Err: err}
}

// SignalError is the cause of a run cancelled by a signal.
type SignalError struct{ Sig os.Signal }

func (e *SignalError) Error() string { return "interrupted by " + signalName(e.Sig) }

// Interrupted turns a cancelled run into the error that reports it:
// "interrupted by SIGINT: what" for a signal, "what: cause" otherwise.
func Interrupted(ctx context.Context, what string) error {
	cause := context.Cause(ctx)
	var sig *SignalError
	if errors.As(cause, &sig) {
		return fmt.Errorf("%w: %s", sig, what)
	}
	return fmt.Errorf("%s: %w", what, cause)
}

// stopHint is an error with what would have kept a stopped count's work.
type stopHint struct {
	error
	hint string
}

func (h *stopHint) Unwrap() error { return h.error }

// StopHint has [ExitCode] add hint to the line of a count err stopped
// with no journal to keep its work ("--checkpoint FILE keeps ...").
func StopHint(err error, hint string) error {
	if err == nil {
		return nil
	}
	return &stopHint{err, hint}
}
