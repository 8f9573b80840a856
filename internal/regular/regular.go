// Package regular opens the files a user names (to read, to append to or
// to replace) only when they are regular files, without ever blocking on
// one that is not: a FIFO or a device named on the command line is
// refused at once, so that a run never hangs in open(2), where no signal
// reaches the program's handlers.
package regular

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/nqueens/nqueens/internal/msg"
)

// ErrNotRegular is wrapped by the error for a path that is not a regular
// file (a FIFO, a device, a directory, a socket).
var ErrNotRegular = errors.New("is not a regular file")

// ErrTooLarge is wrapped by [ReadAll]'s error for a file past its limit.
var ErrTooLarge = errors.New("is too large")

// Open opens the regular file at path for reading and returns it with its
// information. A path that does not exist gives an error wrapping
// [fs.ErrNotExist], one that is no regular file one wrapping
// [ErrNotRegular]; both name the path.
func Open(path string) (*os.File, fs.FileInfo, error) {
	return OpenFile(path, os.O_RDONLY, 0)
}

// OpenFile opens path as [os.OpenFile] does, and only if it is a regular
// file (or, with os.O_CREATE, nothing yet): it is opened without
// blocking (O_NONBLOCK: a FIFO without a writer or reader would wait
// forever), then checked by the opened file's own information, so that
// nothing swapped in between a check and the open gets through.
func OpenFile(path string, flag int, perm fs.FileMode) (*os.File, fs.FileInfo, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, nil, notRegular(path, st.Mode())
	}
	f, err := os.OpenFile(path, flag|oNonBlock, perm)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			switch {
			case errors.Is(pe.Err, fs.ErrNotExist):
				return nil, nil, &pathError{path, "no such file or directory", fs.ErrNotExist}
			case errors.Is(pe.Err, fs.ErrPermission):
				return nil, nil, &pathError{path, "permission denied", fs.ErrPermission}
			}
			return nil, nil, fmt.Errorf("%s: %w", msg.Path(path), pe.Err)
		}
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", msg.Path(path), err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(path, st.Mode())
	}
	return f, st, nil
}

// pathError says what is wrong with a path in words ("x.csv: no such
// file"), wrapping the error to test for.
type pathError struct {
	path, what string
	err        error
}

func (e *pathError) Error() string { return msg.Path(e.path) + ": " + e.what }
func (e *pathError) Unwrap() error { return e.err }

func notRegular(path string, mode fs.FileMode) error {
	kind := "not a file"
	switch t := mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		kind = "a FIFO"
	case t&fs.ModeDevice != 0, t&fs.ModeCharDevice != 0:
		kind = "a device"
	case t&fs.ModeDir != 0:
		kind = "a directory"
	case t&fs.ModeSocket != 0:
		kind = "a socket"
	}
	return fmt.Errorf("%s %w (it is %s)", msg.Path(path), ErrNotRegular, kind)
}

// ReadAll reads the regular file at path whole, refusing one of more than
// limit bytes (checked as it reads: the file may grow meanwhile).
func ReadAll(path string, limit int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, fmt.Errorf("%s %w (%d bytes; at most %d are read)", msg.Path(path), ErrTooLarge, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", msg.Path(path), err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s %w (more than %d bytes)", msg.Path(path), ErrTooLarge, limit)
	}
	return b, nil
}
