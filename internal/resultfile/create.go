package resultfile

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/regular"
)

// ErrLocked is wrapped by [Lock]'s and [Create]'s errors for a file another
// run holds.
var ErrLocked = errors.New("is locked by another nqueens run")

// ErrNotRegular is returned by [Create] for a path that exists and is not a
// regular file (a directory, a device, a link).
//
// It wraps [regular.ErrNotRegular], the one error every package tests for.
var ErrNotRegular = fmt.Errorf("exists and %w", regular.ErrNotRegular)

// Mode is the permission bits of every file a run writes, journals and
// shard files alike, before the process's umask.
const Mode fs.FileMode = 0o644

// Pending is a shard file being written: a temporary file of its own
// beside its path, renamed over it by Commit once complete and synced,
// removed by Abort. A crash or a failed write never leaves a partial file
// at the path; while it is pending, the path is locked against every other
// run.
type Pending struct {
	path string
	tmp  *os.File
	lock *PathLock // held until Commit or Abort
	done bool
}

// LockName is the lock file that [Create] holds beside path for the whole
// run: ".NAME.lock" in path's directory.
func LockName(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// Create checks that path can take a shard file of the count that own
// describes (nothing there, a regular file that is no nqueens file, or
// this very shard's file from an earlier run: a journal, or another
// count's shard file, is refused with an error wrapping [ErrOtherCount]
// that names what it holds), locks it against every other run ([LockPath]:
// a second run on the same path, writing a shard file or a journal, fails
// at once with an error wrapping [ErrLocked] that names the holder where
// the system tells), removes the temporary files an earlier run on path
// left behind (killed with -9), and creates the temporary file: a new file
// with a unique name in path's own directory (".NAME.*.tmp", whatever
// $TMPDIR says, so that the rename stays on one file system), created
// exclusively (O_EXCL), so that nothing in its way (a symlink, a FIFO) is
// ever followed, truncated or removed.
func Create(path string, own Header) (*Pending, error) {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s %w (a result file replaces only a regular file)", msg.Path(path), ErrNotRegular)
	}
	lock, err := LockPath(path)
	if err != nil {
		return nil, err
	}
	// Under the lock, so that no run can begin a journal there between
	// the check and the rename.
	if err := replaceable(path, own); err != nil {
		lock.Release()
		return nil, err
	}
	dir, base := filepath.Dir(path), filepath.Base(path)
	removeStale(dir, base)
	for {
		var r [8]byte
		rand.Read(r[:])
		name := filepath.Join(dir, "."+base+"."+hex.EncodeToString(r[:])+".tmp")
		tmp, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, Mode)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			lock.Release()
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot create a file beside %s: %w", msg.Path(path), err)
		}
		return &Pending{path: path, tmp: tmp, lock: lock}, nil
	}
}

// ErrExists is wrapped by [Create]'s error for a path that holds a file
// that is no shard file at all, or a damaged one: a shard file replaces
// only its own shard's.
var ErrExists = errors.New("exists")

// ErrOtherCount is wrapped by [Create]'s error for a path that holds a
// journal, or a shard file of another count: replacing it would lose
// that count's work.
var ErrOtherCount = errors.New("holds another count's work")

// replaceable checks that the file at path, if any, may be replaced by a
// shard file of the count own describes: only this shard's own file from
// an earlier run may go; a journal, another count's shard file, a file
// that is no shard file or a damaged one are refused.
func replaceable(path string, own Header) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return fmt.Errorf("%s: %w", msg.Path(path), err)
	}
	defer f.Close()
	h, ok := peekHeader(f)
	if !ok {
		return fmt.Errorf("%s %w and is no shard file of this count (its first line is not a shard file's header): a shard file replaces only its own shard's; move it, or write the shard elsewhere", msg.Path(path), ErrExists)
	}
	return OwnShard(path, h, own)
}

// OwnShard checks that h, the header of the shard file at path, is of
// the shard of the count own describes; an error wrapping
// [ErrOtherCount] names what the file holds.
func OwnShard(path string, h, own Header) error {
	own.Kind = Shard
	if h.Kind == Journal {
		return fmt.Errorf("%s is the journal of a count (%s) and %w: a shard file would replace it; resume that count with --checkpoint %s, or write the shard file elsewhere",
			msg.Path(path), h.Describe(), ErrOtherCount, msg.Path(path))
	}
	if h.Kind != own.Kind || h.Seed() != own.Seed() {
		return fmt.Errorf("%s is the shard file of another count (%s) and %w, not this one's (%s): merge or move it first, or write this shard elsewhere",
			msg.Path(path), h.Describe(), ErrOtherCount, own.Describe())
	}
	return nil
}

// peekHeader reads the first line of r as a header, if it is one.
func peekHeader(r io.Reader) (Header, bool) {
	line, err := readLine(bufio.NewReaderSize(io.LimitReader(r, MaxLine+1), 4096))
	if err != nil && err != io.EOF {
		return Header{}, false
	}
	body, ok := checkLine(bytes.TrimSuffix(line, []byte("\n")), 0)
	if !ok {
		return Header{}, false
	}
	h, err := parseHeader(body)
	return h, err == nil
}

// PathLock is the lock of a path that a run writes (a journal or a shard
// file), taken by [LockPath] and held until [PathLock.Release].
type PathLock struct{ f *os.File }

// LockPath locks path for one run, before its first byte is written: the
// lock file [LockName] beside it, opened without following a symbolic
// link (one planted there is refused, never written through) and locked
// with flock (LockFileEx on Windows). Every run takes it for every file it
// writes, journals and shard files alike, so that no two runs write one
// path whatever they write there; a second run fails at once with an
// error wrapping [ErrLocked].
func LockPath(path string) (*PathLock, error) {
	f, err := lockBeside(path)
	if err != nil {
		return nil, err
	}
	return &PathLock{f}, nil
}

// Release removes the lock file and releases the lock.
func (l *PathLock) Release() { unlock(l.f) }

// lockBeside opens and locks path's lock file. The file it locked must
// still be the one at that name (a run that finishes removes it, and one
// that opened it just before may lock the removed file): if not, it tries
// again.
func lockBeside(path string) (*os.File, error) {
	name := LockName(path)
	for {
		if st, err := os.Lstat(name); err == nil && !st.Mode().IsRegular() {
			return nil, fmt.Errorf("cannot lock %s: its lock file %s %w (a symbolic link or another kind of file was put there: remove it)", msg.Path(path), msg.Path(name), ErrNotRegular)
		}
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|oNoFollow, Mode)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			return nil, fmt.Errorf("cannot create a file beside %s: %w", msg.Path(path), err)
		}
		if err := lockAs(f, path); err != nil {
			f.Close()
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
}

// unlock removes the lock file, then releases it.
func unlock(f *os.File) {
	os.Remove(f.Name())
	f.Close()
}

// removeStale removes the regular files ".BASE.*.tmp" in dir that earlier
// runs on the same path left behind; the caller holds the path's lock, so
// no run is writing them.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := "." + base + "."
	for _, e := range entries {
		name := e.Name()
		mid, ok := strings.CutPrefix(name, prefix)
		mid, hex := strings.CutSuffix(mid, ".tmp")
		if !ok || !hex || mid == "" || strings.Trim(mid, "0123456789abcdef") != "" || !e.Type().IsRegular() {
			continue
		}
		os.Remove(filepath.Join(dir, name))
	}
}

func (p *Pending) Write(b []byte) (int, error) { return p.tmp.Write(b) }

// Commit syncs the file, renames it over the path, syncs the directory
// (so that the rename survives a crash) and releases the path's lock.
func (p *Pending) Commit() error {
	if p.done {
		return nil
	}
	if err := p.tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", msg.Path(p.path), err)
	}
	if err := p.tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", msg.Path(p.path), err)
	}
	if err := rename(p.tmp.Name(), p.path); err != nil {
		// The count is complete in the temporary file: say where.
		p.done = true
		p.lock.Release()
		return fmt.Errorf("%w (the complete file is kept as %s)", msg.PathError(err), msg.Path(p.tmp.Name()))
	}
	if d, err := os.Open(filepath.Dir(p.path)); err == nil {
		d.Sync()
		d.Close()
	}
	p.done = true
	p.lock.Release()
	return nil
}

// rename is os.Rename, a variable for the tests to make it fail.
var rename = os.Rename

// Abort removes the temporary file unless it was committed, and releases
// the path's lock; it is safe to call after Commit.
func (p *Pending) Abort() {
	if !p.done {
		p.done = true
		p.tmp.Close()
		os.Remove(p.tmp.Name())
		p.lock.Release()
	}
}
