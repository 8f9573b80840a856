package nqueens

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/resultfile"
)

// This file is the library's error vocabulary. Messages carry no package
// prefix ("nqueens: ", "partition: "): a program prints them as it likes,
// and the command adds "nqueens: " once.

// Errors to test for with [errors.Is]: every error from the caller's input
// wraps ErrInvalid; the others name a failure.
var (
	// ErrInvalid is wrapped by every error that comes from the caller's
	// input (a board size, option, placement, shard, memory limit or
	// journal that does not fit the call): errors.Is(err, ErrInvalid)
	// tells them from failures (I/O, damaged files, a wrong count).
	ErrInvalid = errors.New("invalid input")
	// ErrMismatch is returned when two counts of one board disagree: a
	// checked count ([WithCheck]) whose methods differ, a sample counted
	// twice with different results, or counts that break Burnside's
	// lemma. One of them is wrong.
	ErrMismatch = errors.New("the counts disagree")
	// ErrNoSolution is returned by [Solve] for a board (or a placement)
	// without one.
	ErrNoSolution = errors.New("no solution")
	// ErrLocked is wrapped by the [*FileError] for a journal or shard
	// file that another run holds.
	ErrLocked = resultfile.ErrLocked
)

// invalidError marks an input error without changing its message.
type invalidError struct{ err error }

func (e *invalidError) Error() string        { return e.err.Error() }
func (e *invalidError) Unwrap() error        { return e.err }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

// invalid marks err as the caller's input error; the engine's memory
// refusal becomes the library's [*MemoryError].
func invalid(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) {
		return err
	}
	if me, ok := err.(*engine.MemoryError); ok {
		err = memoryError(me) // the engine's refusal, as the library's
	}
	return &invalidError{err}
}

// invalidf formats an input error.
func invalidf(format string, args ...any) error { return invalid(fmt.Errorf(format, args...)) }

// An OptionError says why a call cannot honour its options: a value an
// option does not accept, or options that contradict each other (an
// option a call does not take does not compile). It wraps [ErrInvalid].
// Its message names options as Go code writes them ("WithWorkers(0)");
// its Words let another reader name them otherwise: the command names its
// flags ("-j 0").
type OptionError struct {
	// Option is the option at fault, by its function's name
	// ("WithWorkers"); Other is the option it contradicts, or "".
	Option, Other string
	// Words are the message: each msg.Name in it is an option
	// (Of: "WithMethod") and the value the caller gave, in its own words
	// ("sym"; "" where it does not matter).
	Words msg.Words
}

func (e *OptionError) Error() string { return e.Words.Say(goName, nil) }
func (e *OptionError) Unwrap() error { return ErrInvalid }

// goName names an option as Go code writes it: "WithMethod(sym)".
func goName(n msg.Name) string {
	if n.Value == "" {
		return n.Of
	}
	return n.Of + "(" + n.Value + ")"
}

// optionError builds an [*OptionError] for option (and other) whose
// message is format with args (options as msg.Name values).
func optionError(option, other string, format string, args ...any) error {
	return &OptionError{Option: option, Other: other, Words: msg.Words{Format: format, Args: args}}
}

// nilContext refuses a nil context, which a call would otherwise
// dereference: context.Background() is the one to pass for none.
func nilContext(call string, ctx context.Context) error {
	if ctx == nil {
		return invalidf("%s: nil context (pass context.Background() for none)", call)
	}
	return nil
}
