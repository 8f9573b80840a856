package boardtext

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

// BoardError is an unreadable board and its place in the input: Board
// counts from 1. It wraps [ErrSyntax].
type BoardError struct {
	Board int
	Err   error // wrapping ErrSyntax
}

// Error names the board and what is wrong with it: "board 2: row 3 has
// 5 squares, not 4".
func (e *BoardError) Error() string {
	return fmt.Sprintf("board %d: %s", e.Board, strings.TrimPrefix(e.Err.Error(), ErrSyntax.Error()+": "))
}

func (e *BoardError) Unwrap() error { return e.Err }

// ParseAll parses one board from each text (the command's arguments)
// with [Parse], all of them before returning any: a [*BoardError] names
// the first that cannot be read.
func ParseAll(texts []string) ([][]int, error) {
	boards := make([][]int, len(texts))
	for i, text := range texts {
		cols, err := Parse(text)
		if err != nil {
			return nil, &BoardError{Board: i + 1, Err: err}
		}
		boards[i] = cols
	}
	return boards, nil
}

// Each reads the boards on r with a [Reader] and hands each to fn as it
// is read, one at a time: the reading waits for fn before it reads the
// next, so memory holds one board whatever the input. more reports that
// input is already waiting after the board (when it is false, the next
// board may be a while: flush what fn wrote). Each returns nil at the end
// of r, fn's error, a [*BoardError] for an unreadable board, r's error
// as it is, or, when ctx is done first, ctx's cause: the reading
// goes on in a goroutine, so a reader blocked on a pipe whose writer is
// still thinking does not hold up a stop.
func Each(ctx context.Context, r io.Reader, fn func(cols []int, more bool) error) error {
	type board struct {
		cols []int
		more bool // input waiting after it
		err  error
	}
	boards := make(chan board)
	next := make(chan struct{})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(boards)
		br := NewReader(r)
		for {
			cols, err := br.Next()
			if err == io.EOF {
				return
			}
			select {
			case boards <- board{cols, br.Buffered(), err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
			select {
			case <-next:
			case <-stop:
				return
			}
		}
	}()
	read := 0
	for {
		select {
		case b, ok := <-boards:
			switch {
			case !ok:
				return nil
			case errors.Is(b.err, ErrSyntax):
				return &BoardError{Board: read + 1, Err: b.err}
			case b.err != nil:
				return b.err
			}
			read++
			if err := fn(b.cols, b.more); err != nil {
				return err
			}
			next <- struct{}{}
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}
