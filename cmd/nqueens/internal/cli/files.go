package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqueens/nqueens"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/internal/regular"
)

// FileFlag words an error about the file a flag names: one that does not
// exist, is not a regular file or is not bench's own CSV is the command
// line's mistake (exit 2); anything else (a damaged or too large file, a
// failed write) is a failure (exit 1).
func FileFlag(flag string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, regular.ErrNotRegular) || errors.Is(err, benchmark.ErrNotCSV) {
		return Usagef("--%s: %w", flag, err)
	}
	return fmt.Errorf("--%s: %w", flag, err)
}

// fileID identifies a directory, so that a listing that follows links
// lists each once and never loops.
type fileID struct{ dev, ino uint64 }

// listShardFiles appends the shard files and journals under dir, in
// lexical order, following links to directories as count --dir writes
// through them (a shard folder linked to another file system), each
// directory once.
func listShardFiles(dir string, out []nqueens.File, seen map[fileID]bool, depth int) ([]nqueens.File, error) {
	if depth > maxDepth {
		return out, fmt.Errorf("%s is more than %d folders deep (a loop of links?)", dir, maxDepth)
	}
	if id, ok := idOf(dir); ok {
		if seen[id] {
			return out, nil
		}
		seen[id] = true
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out, err
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		typ := e.Type()
		if typ&fs.ModeSymlink != 0 {
			st, err := os.Stat(path)
			if err != nil {
				continue // a dangling link holds nothing
			}
			typ = st.Mode().Type()
		}
		switch {
		case typ.IsDir():
			if out, err = listShardFiles(path, out, seen, depth+1); err != nil {
				return out, err
			}
		case typ.IsRegular() && (strings.HasSuffix(path, ".result") || strings.HasSuffix(path, ".journal")):
			out = append(out, nqueens.File{Name: path, Listed: true})
		}
	}
	return out, nil
}

// maxDepth bounds how deep a listing goes: a campaign's folders are two
// deep.
const maxDepth = 64

// ShardFiles returns the files merge, status and audit read for the
// command-line paths: a file as it is, a directory as every shard result
// file (*.result) and journal (*.journal) under it, at any depth and
// through links to directories (as count --dir writes), in
// lexical order, marked Listed (status passes over one that is gone when
// it is read: a journal its finished shard removed); a campaign of
// 100,000 shards keeps them in subfolders, and their names would not fit
// on one command line. A directory that holds none is the command line's
// mistake (exit 2).
func ShardFiles(paths []string) ([]nqueens.File, error) {
	var out []nqueens.File
	for _, p := range paths {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			out = append(out, nqueens.File{Name: p}) // the library says what is wrong with it
			continue
		}
		before := len(out)
		var err error
		if out, err = listShardFiles(p, out, map[fileID]bool{}, 0); err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		if len(out) == before {
			return nil, Usagef("%s is a directory with no shard files or journals in it (accepted: files, or directories holding *.result and *.journal files)", p)
		}
	}
	return out, nil
}
