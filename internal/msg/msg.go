// Package msg holds what every message of nqueens does alike.
package msg

import (
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
