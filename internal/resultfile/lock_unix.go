//go:build unix

package resultfile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/nqueens/nqueens/internal/msg"
)

// Lock takes an exclusive advisory lock (flock(2)) on f, held until f is
// closed, or fails at once with an error wrapping [ErrLocked] that names the
// file and, where the system tells (Linux's /proc/locks), the holder's
// process ID. On Linux NFS clients flock is carried out with the server's
// byte-range locks, so it holds across machines where the server locks
// (NFSv4, or NFSv3 with its lock manager; not on a "nolock" mount).
func Lock(f *os.File) error { return lockAs(f, f.Name()) }

// lockAs is [Lock], naming the file locked as name in its errors.
func lockAs(f *os.File, name string) error {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EWOULDBLOCK):
		if pid := holder(f); pid > 0 {
			return fmt.Errorf("%s %w (process %d), which is writing it", msg.Path(name), ErrLocked, pid)
		}
		return fmt.Errorf("%s %w, which is writing it", msg.Path(name), ErrLocked)
	}
	return fmt.Errorf("locking %s: %w", msg.Path(name), err)
}

const oNoFollow = unix.O_NOFOLLOW
