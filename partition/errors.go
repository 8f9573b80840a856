package partition

import (
	"errors"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// Errors returned by [NewPlanner], [Make] and the parsers, each wrapped
// with what was wrong. Messages carry no package prefix.
var (
	errMethod       = errors.New("unknown method")
	errPiece        = errors.New("unknown piece")
	errPieceMode    = errors.New("this piece does not combine with that")
	ErrPlacedMethod = errors.New("queens placed in advance work with the mirror method only")
	ErrShard        = errors.New("bad shard")
	errTooLarge     = errors.New("plan too large")
)

// A JobError says which field of a [Job] breaks which rule. Its message
// names fields in lower case ("method sym"); the library names its
// options instead, the command its flags, from the same Words.
type JobError struct {
	// Field is the field at fault ("Method", "Piece", "Torus", "Placed");
	// Other is the field it contradicts, or "".
	Field, Other string
	// Err is the rule broken: errMethod, errPiece, errPieceMode,
	// ErrPlacedMethod or ErrPlacement.
	Err error
	// Words are the message, its fields left to the reader to name.
	Words Words
}

func (e *JobError) Error() string { return e.Words.Say(fieldName, nil) }
func (e *JobError) Unwrap() error { return e.Err }

// fieldName names a field for [JobError.Error]: "method sym".
func fieldName(n msg.Name) string {
	if n.Value == "" {
		return strings.ToLower(n.Of)
	}
	return strings.ToLower(n.Of) + " " + n.Value
}

// jobError builds a [*JobError] whose message is format with args.
func jobError(field, other string, rule error, format string, args ...any) error {
	return &JobError{Field: field, Other: other, Err: rule, Words: msg.Words{Format: format, Args: args}}
}
