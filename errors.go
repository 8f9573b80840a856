package nqueens

import (
	"errors"
	"fmt"

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

// invalid marks err as the caller's input error.
func invalid(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) {
		return err
	}
	return &invalidError{err}
}

// invalidf formats an input error.
func invalidf(format string, args ...any) error { return invalid(fmt.Errorf(format, args...)) }

// An OptionError says why a call cannot honour its options: a value an
// option does not accept, or options that contradict each other (an
// option a call does not take does not compile). It wraps [ErrInvalid]. Its message names options
// as Go code writes them ("WithWorkers(0)"); [OptionError.Explain] names
// them otherwise: the command names its flags ("-j 0").
type OptionError struct {
	// Option is the option at fault, by its function's name
	// ("WithWorkers"); Other is the option it contradicts, or "".
	Option, Other string
	words         func(name func(option, value string) string) string
}

func (e *OptionError) Error() string { return e.Explain(goName) }
func (e *OptionError) Unwrap() error { return ErrInvalid }

// Explain returns the message with every option named by name(option,
// value): option is the function's name ("WithMethod"), value the value
// the caller gave in its own words ("sym"), or "" where it does not matter.
func (e *OptionError) Explain(name func(option, value string) string) string { return e.words(name) }

// goName names an option as Go code writes it.
func goName(option, value string) string {
	switch {
	case option == "Square": // a placed square: "0:1"
		return value
	case value == "":
		return option
	}
	return option + "(" + value + ")"
}

// optionError builds an [*OptionError] for option (and other) whose
// message words write, naming options with name.
func optionError(option, other string, words func(name func(option, value string) string) string) error {
	return &OptionError{Option: option, Other: other, words: words}
}
