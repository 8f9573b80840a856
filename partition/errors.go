package partition

import (
	"errors"
	"fmt"
	"strings"
)

// Errors returned by [NewPlanner], [Make] and the parsers, each wrapped
// with what was wrong. Messages carry no package prefix.
var (
	ErrSize         = errors.New("board size out of range")
	ErrMethod       = errors.New("unknown method")
	ErrPiece        = errors.New("unknown piece")
	ErrPieceMode    = errors.New("this piece does not combine with that")
	ErrPlacedMethod = errors.New("queens placed in advance work with the mirror method only")
	ErrPlacement    = errors.New("bad placement")
	ErrShard        = errors.New("bad shard")
	ErrTooLarge     = errors.New("plan too large")
)

// A JobError says which field of a [Job] breaks which rule. Its message
// names fields in lower case ("method sym"); the library names its
// options instead, the command its flags, from the same Words.
type JobError struct {
	// Field is the field at fault ("Method", "Piece", "Torus", "Placed");
	// Other is the field it contradicts, or "".
	Field, Other string
	// Err is the rule broken: ErrMethod, ErrPiece, ErrPieceMode,
	// ErrPlacedMethod or ErrPlacement.
	Err error
	// Words are the message, its fields left to the reader to name.
	Words Words
}

func (e *JobError) Error() string { return e.Words.Say(fieldName, Square.String) }
func (e *JobError) Unwrap() error { return e.Err }

// fieldName names a field for [JobError.Error]: "method sym".
func fieldName(n Name) string {
	if n.Value == "" {
		return strings.ToLower(n.Of)
	}
	return strings.ToLower(n.Of) + " " + n.Value
}

// jobError builds a [*JobError] whose message is format with args.
func jobError(field, other string, rule error, format string, args ...any) error {
	return &JobError{Field: field, Other: other, Err: rule, Words: Words{Format: format, Args: args}}
}

// A Name is what a message names: a field of a [Job] (in the library's
// messages an option, in the command's a flag) and the value it was
// given, as text ("" where the value does not matter).
type Name struct{ Of, Value string }

// Words are a message whose names its reader words: Format's verbs take
// Args in order, each [Name] written as the reader names it and each
// [Square] as the reader writes squares (the command: as they were
// typed), every other argument as it is.
type Words struct {
	Format string
	Args   []any
}

// Say writes the message, name and square writing its Names and Squares.
func (w Words) Say(name func(Name) string, square func(Square) string) string {
	a := make([]any, len(w.Args))
	for i, x := range w.Args {
		switch v := x.(type) {
		case Name:
			a[i] = name(v)
		case Square:
			a[i] = square(v)
		default:
			a[i] = x
		}
	}
	return fmt.Sprintf(w.Format, a...)
}

// Rename returns the words with each Name's Of as rename gives it (the
// library's options for a Job's fields).
func (w Words) Rename(rename func(string) string) Words {
	a := make([]any, len(w.Args))
	for i, x := range w.Args {
		if n, ok := x.(Name); ok {
			n.Of = rename(n.Of)
			x = n
		}
		a[i] = x
	}
	return Words{Format: w.Format, Args: a}
}
