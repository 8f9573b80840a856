// Package msg holds what every message of nqueens does alike.
package msg

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"unicode/utf8"
)

// MaxQuote is the most bytes of quoted input a message repeats.
const MaxQuote = 80

// Quote quotes s for a message as strconv.Quote does, cut after at most
// MaxQuote bytes of quoted text: a bad value of 5 MB (or of escaped binary)
// gets a line, not megabytes, on stderr.
func Quote(s string) string {
	if q := strconv.Quote(s); len(q) <= MaxQuote+2 {
		return q
	}
	out := []byte{'"'}
	for i := 0; i < len(s); {
		_, size := utf8.DecodeRuneInString(s[i:])
		q := strconv.Quote(s[i : i+size])
		if len(out)+len(q)-2 > MaxQuote {
			break
		}
		out = append(out, q[1:len(q)-1]...)
		i += size
	}
	return string(out) + `"…`
}

// MaxPath is the longest path a message shows whole.
const MaxPath = 120

// Path returns a file's path for a message: whole up to MaxPath bytes,
// otherwise "…" and its last MaxPath bytes (the file's name is what tells
// one file from another).
func Path(p string) string {
	if len(p) <= MaxPath {
		return p
	}
	tail := p[len(p)-MaxPath:]
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return "…" + tail
}

// PathError rewrites err's file operation errors (*fs.PathError,
// *os.LinkError) to show their paths as [Path] does; the errors they wrap
// stay reachable with errors.Is.
func PathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && len(pe.Path) > MaxPath {
		return fmt.Errorf("%s %s: %w", pe.Op, Path(pe.Path), pe.Err)
	}
	var le *os.LinkError
	if errors.As(err, &le) && (len(le.Old) > MaxPath || len(le.New) > MaxPath) {
		return fmt.Errorf("%s %s %s: %w", le.Op, Path(le.Old), Path(le.New), le.Err)
	}
	return err
}

// Ranges writes sorted, distinct numbers as ranges: "0-49999, 50001-99998"
// for 99,998 numbers, so that a list of missing shards reads at any count.
func Ranges(xs []int) string {
	var b []byte
	for i := 0; i < len(xs); {
		j := i
		for j+1 < len(xs) && xs[j+1] == xs[j]+1 {
			j++
		}
		if len(b) > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(xs[i]), 10)
		if j > i {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(xs[j]), 10)
		}
		i = j + 1
	}
	return string(b)
}

// A Name is what a message names: a field of a plan's Job (in the
// library's messages an option, in the command's a flag) and the value
// it was given, as text ("" where the value does not matter).
type Name struct{ Of, Value string }

// Words are a message whose names its reader words: Format's verbs take
// Args in order, each [Name] written as the reader names it, every other
// argument as it is (a square by its String: "row:col").
type Words struct {
	Format string
	Args   []any
}

// Say writes the message, name writing its Names and other, where it is
// not nil and says so, any other argument (the command writes squares as
// they were typed).
func (w Words) Say(name func(Name) string, other func(any) (string, bool)) string {
	a := make([]any, len(w.Args))
	for i, x := range w.Args {
		if v, ok := x.(Name); ok {
			x = name(v)
		} else if other != nil {
			if s, ok := other(x); ok {
				x = s
			}
		}
		a[i] = x
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
