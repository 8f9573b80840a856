package resultfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/nqueens/nqueens/internal/msg"
)

// ErrLocked is wrapped by [Lock]'s error for a file another run holds.
var ErrLocked = errors.New("is locked by another nqueens run")

// ErrNotRegular is returned by [Create] for a path that exists and is not a
// regular file (a directory, a device, a link).
var ErrNotRegular = errors.New("exists and is not a regular file")

// Pending is a shard file being written: a temporary file of its own
// beside its path, renamed over it by Commit once complete and synced,
// removed by Abort. A crash or a failed write never leaves a partial file
// at the path.
type Pending struct {
	path string
	tmp  *os.File
	done bool
}

// Create checks that path can take a result file (a regular file or
// nothing) and creates the temporary file: a new file with a unique name
// in path's directory (".NAME.*.tmp"), created exclusively (O_EXCL), so
// that nothing in its way (another run's temporary file, a symlink, a
// FIFO) is ever followed, truncated or removed.
func Create(path string) (*Pending, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %w (a result file replaces only a regular file)", msg.Path(path), ErrNotRegular)
	}
	dir, base := filepath.Split(path)
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot create a file beside %s: %w", msg.Path(path), err)
	}
	return &Pending{path: path, tmp: tmp}, nil
}

func (p *Pending) Write(b []byte) (int, error) { return p.tmp.Write(b) }

// Commit syncs the file and renames it over the path.
func (p *Pending) Commit() error {
	if err := p.tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", msg.Path(p.path), err)
	}
	if err := p.tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", msg.Path(p.path), err)
	}
	if err := os.Rename(p.tmp.Name(), p.path); err != nil {
		return msg.PathError(err)
	}
	p.done = true
	return nil
}

// Abort removes the temporary file unless it was committed; it is safe to
// call after Commit.
func (p *Pending) Abort() {
	if !p.done {
		p.tmp.Close()
		os.Remove(p.tmp.Name())
	}
}
