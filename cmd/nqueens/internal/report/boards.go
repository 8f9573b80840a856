package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"syscall"
	"time"
)

// This file is the formats of single boards: columns, a board of rows,
// JSON, each appended to a buffer, and a stream of them.

// MaxBoardN is the largest board printed as a board of rows (n² squares:
// 16 M at 4096); larger ones print as columns.
const MaxBoardN = 4096

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

// Solutions writes a stream of solutions as they come ('nqueens list').
type Solutions struct {
	// Format appends one solution: Columns, Board or JSON.
	Format func(dst []byte, cols []int) []byte
	// Blank separates solutions by a blank line (boards).
	Blank bool
	// Limit, when above 0, is the most solutions written.
	Limit int64
}

// Write writes the solutions of seq to w, buffered: the first line goes
// out at once, then at least ten times a second (and whenever the buffer
// fills), so a slow search still shows what it found. It returns the
// solutions written and seq's error as it is (after flushing what came
// before it), or a write error ("writing the solutions: ..."), except
// that a closed pipe (| head) ends the listing quietly: nil.
func (s Solutions) Write(w io.Writer, seq iter.Seq2[[]int, error]) (int64, error) {
	bw := bufio.NewWriterSize(w, 1<<16)
	var printed int64
	var buf []byte
	flushed := time.Now()
	for cols, err := range seq {
		if err != nil {
			bw.Flush()
			return printed, err
		}
		buf = buf[:0]
		if s.Blank && printed > 0 {
			buf = append(buf, '\n')
		}
		buf = s.Format(buf, cols)
		if _, err := bw.Write(buf); err != nil {
			return printed, writeError(err)
		}
		if printed++; printed == s.Limit {
			break
		}
		if now := time.Now(); printed == 1 || now.Sub(flushed) > 100*time.Millisecond {
			if err := bw.Flush(); err != nil {
				return printed, writeError(err)
			}
			flushed = now
		}
	}
	return printed, writeError(bw.Flush())
}

// writeError is nil for a reader that has gone (EPIPE).
func writeError(err error) error {
	if err == nil || errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return fmt.Errorf("writing the solutions: %w", err)
}
