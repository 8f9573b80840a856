package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens/partition"
)

// placeFlag adds --place to fs.
func placeFlag(fs *pflag.FlagSet, p *string) {
	fs.StringVar(p, "place", "", `queens that must be on the board: 0-based row:col pairs or chess squares (a1 = row 0, column 0, the top-left corner as printed), comma-separated, e.g. "0:1,3:2" or "b1,c4"`)
}

// parsePlacement parses and checks --place for an n×n board. It returns
// nil for an empty flag.
func parsePlacement(s string, n int) ([]partition.Square, error) {
	if s == "" {
		return nil, nil
	}
	placed, err := partition.ParseSquares(s)
	if err != nil {
		return nil, fmt.Errorf("--place: %w", err)
	}
	if err := partition.CheckPlacement(n, placed); err != nil {
		return nil, fmt.Errorf("--place: %w", err)
	}
	return placed, nil
}

// boardArgs checks the arguments common to count and list: the board size,
// -j and --place.
func boardArgs(cmd *cobra.Command, arg string, workers int, place string) (int, []partition.Square, error) {
	n, err := parseN(arg)
	if err != nil {
		return 0, nil, err
	}
	if err := checkWorkers(cmd, workers); err != nil {
		return 0, nil, err
	}
	placed, err := parsePlacement(place, n)
	return n, placed, err
}

// noteConflict tells on stderr that placed queens attack each other, so the
// answer is no solution.
func noteConflict(stderr io.Writer, placed []partition.Square) bool {
	a, b, ok := partition.DiagonalConflict(placed)
	if ok {
		fmt.Fprintf(stderr, "nqueens: note: placed queens %s and %s share a diagonal, so no solution contains both\n", a, b)
	}
	return ok
}

// appendColumns appends "c0 c1 … cn-1\n".
func appendColumns[T int | uint8](dst []byte, cols []T) []byte {
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	return append(dst, '\n')
}

// appendBoard appends the board, one row per line, squares separated by
// spaces: ". Q . .".
func appendBoard[T int | uint8](dst []byte, cols []T) []byte {
	n := len(cols)
	for _, c := range cols {
		for j := 0; j < n; j++ {
			if j > 0 {
				dst = append(dst, ' ')
			}
			if j == int(c) {
				dst = append(dst, 'Q')
			} else {
				dst = append(dst, '.')
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// appendJSON appends {"n":N,"columns":[…]}.
func appendJSON[T int | uint8](dst []byte, cols []T) []byte {
	dst = append(dst, `{"n":`...)
	dst = strconv.AppendInt(dst, int64(len(cols)), 10)
	dst = append(dst, `,"columns":[`...)
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	return append(dst, "]}\n"...)
}

// conflict describes the first conflict of a board given as the column of
// each row's queen (-1 for a row without one, -2 for a row with several),
// or "" if it is a solution.
func conflict(cols []int) string {
	for r, c := range cols {
		switch c {
		case -1:
			return fmt.Sprintf("row %d has no queen", r)
		case -2:
			return fmt.Sprintf("row %d has more than one queen", r)
		}
	}
	n := len(cols)
	// Find the first pair (in row order) that shares a column or diagonal
	// in O(n): remember, per column and diagonal, the first row using it.
	col := make([]int, n)
	d1 := make([]int, 2*n)
	d2 := make([]int, 2*n)
	for i := range col {
		col[i] = -1
	}
	for i := range d1 {
		d1[i], d2[i] = -1, -1
	}
	type hit struct {
		first, second int
		what          string
	}
	best := hit{first: -1}
	better := func(h hit) {
		if best.first < 0 || h.second < best.second || h.second == best.second && h.first < best.first {
			best = h
		}
	}
	for r, c := range cols {
		if p := col[c]; p >= 0 {
			better(hit{p, r, fmt.Sprintf("share column %d", c)})
		} else {
			col[c] = r
		}
		if p := d1[r+c]; p >= 0 {
			better(hit{p, r, "share a diagonal"})
		} else {
			d1[r+c] = r
		}
		if p := d2[r-c+n]; p >= 0 {
			better(hit{p, r, "share a diagonal"})
		} else {
			d2[r-c+n] = r
		}
		if best.first >= 0 {
			break
		}
	}
	if best.first >= 0 {
		return fmt.Sprintf("rows %d and %d %s", best.first, best.second, best.what)
	}
	return ""
}

// parseBoard reads one board: rows of '.' and 'Q' (with or without spaces
// between squares), or a list of columns ("1 3 0 2" or "1,3,0,2"). It
// returns the column of each row's queen (-1: none, -2: several).
func parseBoard(text string) ([]int, error) {
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
	fields := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
	n := len(fields)
	cols := make([]int, n)
	for r, f := range fields {
		c, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("column %q of row %d is not an integer (accepted: 0-based columns separated by spaces or commas)", f, r)
		}
		if c < 0 || c >= n {
			return nil, fmt.Errorf("column %d of row %d is off the %d×%d board (accepted: 0..%d)", c, r, n, n, n-1)
		}
		cols[r] = c
	}
	return cols, nil
}
