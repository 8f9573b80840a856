package nqueens

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// This file lists a campaign's directory: the files [CountShards] writes
// there ([ShardPaths]), read back by the same rule.

// DirFiles returns the shard files (*.result) and journals (*.journal)
// under dir, at any depth, in lexical order, for [Merge], [Status] and
// [Audit]: the files [CountShards] writes there, read through links to
// directories as it writes through them (a shard folder linked to another
// file system), each directory once, loops ended. Each is marked Listed
// ([Status] passes over one that is gone by the time it is read: a
// journal its finished shard removed). A directory with none gives none.
func DirFiles(dir string) ([]File, error) {
	return listShardFiles(dir, nil, map[fileID]bool{}, 0)
}

// fileID identifies a directory, so that a listing that follows links
// lists each once and never loops.
type fileID struct{ dev, ino uint64 }

// listShardFiles appends the shard files and journals under dir to out
// ([DirFiles]).
func listShardFiles(dir string, out []File, seen map[fileID]bool, depth int) ([]File, error) {
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
			out = append(out, File{Name: path, Listed: true})
		}
	}
	return out, nil
}

// maxDepth bounds how deep a listing goes: a campaign's folders are two
// deep.
const maxDepth = 64
