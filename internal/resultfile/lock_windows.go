//go:build windows

package resultfile

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// Lock takes an exclusive lock (LockFileEx) on f, held until f is closed,
// or fails at once with an error wrapping [ErrLocked] naming the file.
func Lock(f *os.File) error { return lockAs(f, f.Name()) }

// lockAs is [Lock], naming the file locked as name in its errors.
func lockAs(f *os.File, name string) error {
	var ol windows.Overlapped
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION):
		return fmt.Errorf("%s %w, which is writing it", name, ErrLocked)
	}
	return fmt.Errorf("locking %s: %w", name, err)
}

// oNoFollow: Windows has no O_NOFOLLOW; the Lstat before the open checks.
const oNoFollow = 0
