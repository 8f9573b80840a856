package partition

import (
	"errors"
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
// names fields in lower case ("method sym"); [JobError.Explain] names them
// otherwise: the library names its options, the command its flags.
type JobError struct {
	// Field is the field at fault ("Method", "Piece", "Torus", "Placed");
	// Other is the field it contradicts, or "".
	Field, Other string
	// Err is the rule broken: ErrMethod, ErrPiece, ErrPieceMode,
	// ErrPlacedMethod or ErrPlacement.
	Err   error
	words func(name func(field, value string) string) string
}

func (e *JobError) Error() string { return e.Explain(fieldName) }
func (e *JobError) Unwrap() error { return e.Err }

// Explain returns the message with every field named by name(field,
// value): value is the field's value as text ("sym", "king", a placed
// square "0:1" for the field "Square"), or "" where it does not matter.
func (e *JobError) Explain(name func(field, value string) string) string { return e.words(name) }

// fieldName names a field for [JobError.Error].
func fieldName(field, value string) string {
	switch {
	case field == "Square":
		return value
	case value == "":
		return strings.ToLower(field)
	}
	return strings.ToLower(field) + " " + value
}

// jobError builds a [*JobError].
func jobError(field, other string, rule error, words func(name func(field, value string) string) string) error {
	return &JobError{Field: field, Other: other, Err: rule, words: words}
}
