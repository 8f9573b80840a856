// Package msg holds what every message of nqueens does alike.
package msg

import "strconv"

// MaxQuote is the most bytes of the user's input a message repeats.
const MaxQuote = 80

// Quote quotes s for a message, cut to at most MaxQuote bytes of it: a
// bad value of 5 MB gets a line, not 5 MB, on stderr.
func Quote(s string) string {
	if len(s) > MaxQuote {
		return strconv.Quote(s[:MaxQuote-3]) + "…"
	}
	return strconv.Quote(s)
}
