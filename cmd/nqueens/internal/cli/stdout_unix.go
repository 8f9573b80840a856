//go:build unix

package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// Stdout is os.Stdout, or, where the command was started with its
// standard output closed (nqueens count 12 >&-), a writer whose every
// write fails: Go's runtime opens /dev/null read-write in a closed
// standard descriptor's place, which would take the count and lose it
// with exit 0. A descriptor a shell redirected to /dev/null is opened
// write-only, and is written as usual.
func Stdout() io.Writer {
	var st unix.Stat_t
	if unix.Fstat(1, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR || st.Rdev != devNull() {
		return os.Stdout
	}
	if fl, err := unix.FcntlInt(1, unix.F_GETFL, 0); err != nil || fl&unix.O_ACCMODE != unix.O_RDWR {
		return os.Stdout
	}
	return closedWriter{}
}

// devNull is /dev/null's device number (0 where it cannot be read).
func devNull() uint64 {
	var st unix.Stat_t
	if unix.Stat("/dev/null", &st) != nil {
		return 0
	}
	return uint64(st.Rdev)
}
