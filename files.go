package nqueens

import (
	"errors"
	"fmt"
	"os"

	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/regular"
	"github.com/nqueens/nqueens/internal/resultfile"
)

// This file is the runner's side of files on disk: a journal locked for
// the whole run, a shard file written whole or not at all, and the files
// Merge and Status read.

// FileError is an error about a run's journal or shard file on disk. Role
// is "journal" or "shard file"; Err says what. It wraps [ErrLocked] for a
// file another run holds, and [ErrInvalid] for a path that exists and is
// no regular file.
type FileError struct {
	Role, Path string
	Err        error
}

func (e *FileError) Error() string { return e.Role + " " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Is makes a path that is no regular file, or that holds another count's
// work, the caller's input error.
func (e *FileError) Is(target error) bool {
	return target == ErrInvalid && (errors.Is(e.Err, regular.ErrNotRegular) || errors.Is(e.Err, resultfile.ErrOtherCount) || errors.Is(e.Err, resultfile.ErrExists))
}

// WithJournalFile journals the run to the file at path, so that a later
// run of the same count resumes from it after a stop, a crash or kill -9,
// creating it if need be. A run reads it from the start, drops a torn last
// record, appends each finished task, and syncs every few seconds and at
// the end; a journal of another count (another n, method, placement, shard
// or plan) is refused with an error wrapping [ErrInvalid]. The run holds an exclusive lock on it
// (flock; LockFileEx on Windows) from before the first task to the end, so
// a second run on the same file fails at once with a [*FileError] wrapping
// [ErrLocked] that names, on Linux, the holder's process ID.
//
// [Count] takes it.
func WithJournalFile(path string) CountOption {
	return countOnly{set: set{"WithJournalFile", func(c *config) { c.jpath, c.given = path, c.given|optJournalFile }}}
}

// WithShardFile counts shard i of m, as [WithShard] does, and writes its
// shard file to path: to a temporary file of its own in path's directory
// (created exclusively: nothing in its way is followed or touched), synced
// and renamed over path once complete, removed on any failure. The run
// holds a lock on path (the lock file ".NAME.lock" beside it) from before
// the first task to the end, so a second run on the same path fails at
// once with a [*FileError] wrapping [ErrLocked]. A path that holds this
// shard's finished shard file is read back instead of counted again
// (Counts.ReadBack, and a note); a path that holds anything else (a
// journal, another count's or a damaged shard file, any other file), that
// is not a regular file, or that [WithJournalFile] names too, is refused
// before counting, the file left as it was. Once the shard file is
// written, a [WithJournalFile] journal beside it is removed.
//
// [Count] takes it.
func WithShardFile(i, m int, path string) CountOption {
	return countOnly{set: set{"WithShardFile", func(c *config) { c.shard, c.shards, c.outPath, c.given = i, m, path, c.given|optShardFile }}}
}

// openFiles opens the files c names by path for a run of the count h
// describes: the journal and the shard file's temporary, each path locked
// by [resultfile.LockPath] before its first byte (so that no other run,
// writing either kind of file, can write the same path) and the journal
// also by flock on itself. done closes them, and commits the shard file
// if ok.
func (j *journalling) openFiles(h resultfile.Header) (done func(ok bool) error, err error) {
	var closers []func(ok bool) error
	done = func(ok bool) error {
		var first error
		for i := len(closers) - 1; i >= 0; i-- {
			if err := closers[i](ok); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	if j.outPath != "" {
		out, err := resultfile.Create(j.outPath, h)
		if err != nil {
			return nil, &FileError{"shard file", j.outPath, msg.PathError(err)}
		}
		j.out = out
		closers = append(closers, func(ok bool) error {
			if !ok {
				out.Abort()
				return nil
			}
			if err := out.Commit(); err != nil {
				return &FileError{"shard file", j.outPath, msg.PathError(err)}
			}
			return nil
		})
	}
	if j.jpath != "" {
		fail := func(err error) (func(bool) error, error) {
			done(false)
			return nil, &FileError{"journal", j.jpath, msg.PathError(err)}
		}
		if st, err := os.Stat(j.jpath); err == nil && !st.Mode().IsRegular() {
			return fail(fmt.Errorf("%s %w", j.jpath, resultfile.ErrNotRegular))
		}
		lock, err := resultfile.LockPath(j.jpath)
		if err != nil {
			return fail(err)
		}
		closers = append(closers, func(bool) error { lock.Release(); return nil })
		// Without blocking: a FIFO put there since the check is refused.
		f, _, err := regular.OpenFile(j.jpath, os.O_RDWR|os.O_CREATE, resultfile.Mode)
		if err != nil {
			return fail(err)
		}
		if err := resultfile.Lock(f); err != nil {
			f.Close()
			return fail(err)
		}
		j.journal, j.jname = f, j.jpath
		closers = append(closers, func(bool) error { return f.Close() })
	}
	return done, nil
}
