// Package boardtext reads boards as people write them: rows of '.' and
// 'Q', or a line of 0-based columns, one board at a time from a stream of
// them. It is the command's (verify's) text format; the library takes
// columns.
package boardtext

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
)

// Parse reads one board: rows of '.' and 'Q' (with or without spaces
// between squares), or a list of 0-based columns ("1 3 0 2" or "1,3,0,2").
// It returns the column of each row's queen (-1: none, -2: several), for
// nqueens.Verify. Errors quote at most 80 bytes of the input.
func Parse(text string) ([]int, error) {
	var lines []string
	for _, l := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("empty board")
	}
	if len(lines) == 1 && strings.ContainsAny(lines[0], "0123456789") {
		return parseColumns(lines[0])
	}
	n := len(lines)
	cols := make([]int, n)
	for r, l := range lines {
		sq := strings.ReplaceAll(strings.ReplaceAll(l, " ", ""), "\t", "")
		cols[r] = -1
		for c, ch := range sq {
			switch ch {
			case '.':
			case 'Q', 'q':
				if cols[r] == -1 {
					cols[r] = c
				} else {
					cols[r] = -2
				}
			default:
				return nil, fmt.Errorf("row %d: unexpected %q (accepted: '.' for an empty square, 'Q' for a queen)", r, ch)
			}
		}
		if len(sq) != n {
			return nil, fmt.Errorf("row %d has %d squares, want %d (a board has as many columns as rows)", r, len(sq), n)
		}
	}
	return cols, nil
}

func parseColumns(line string) ([]int, error) {
	// Commas separate fields one for one (with spaces around them or not);
	// an empty field between two commas is a missing column, not nothing.
	var fields []string
	for _, part := range strings.Split(line, ",") {
		words := strings.Fields(part)
		if len(words) == 0 && strings.Contains(line, ",") {
			return nil, fmt.Errorf("an empty column between commas in %s (accepted: 0-based columns separated by spaces or commas)", msg.Quote(line))
		}
		fields = append(fields, words...)
	}
	n := len(fields)
	cols := make([]int, n)
	for r, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("column %s of row %d is not an integer (accepted: 0-based columns separated by spaces or commas)", msg.Quote(f), r)
		}
		if c < 0 || c >= n {
			return nil, fmt.Errorf("column %d of row %d is off the %d×%d board (accepted: 0..%d)", c, r, n, n, n-1)
		}
		cols[r] = c
	}
	return cols, nil
}

// Split yields the boards for [Parse] on r as each is read: boards
// of rows are separated by blank lines; a line of columns ("1 3 0 2") is a
// board of its own. Lines may be up to 1 GiB long (boards of a million
// rows); one board is held at a time. A read error is yielded last.
func Split(r io.Reader) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 1<<30)
		var cur []string
		flush := func() bool {
			if len(cur) == 0 {
				return true
			}
			b := strings.Join(cur, "\n")
			cur = cur[:0]
			return yield(b, nil)
		}
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			ok := true
			switch {
			case line == "":
				ok = flush()
			case strings.ContainsAny(line, "0123456789"):
				ok = flush() && yield(line, nil)
			default:
				cur = append(cur, line)
			}
			if !ok {
				return
			}
		}
		if flush() && sc.Err() != nil {
			yield("", sc.Err())
		}
	}
}
