package report

import "strconv"

// This file is the formats of single boards: columns, a board of rows,
// JSON, each appended to a buffer.

// Columns appends "c0 c1 … cn-1\n".
func Columns(dst []byte, cols []int) []byte {
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	return append(dst, '\n')
}

// Board appends the board, one row per line, squares separated by
// spaces: ". Q . .".
func Board(dst []byte, cols []int) []byte {
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

// JSON appends {"n":N,"columns":[…]}.
func JSON(dst []byte, cols []int) []byte {
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
