package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/msg"

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

// ShardFiles returns the files merge, status and audit read for the
// command-line paths: a file as it is, a directory as [nqueens.DirFiles]
// lists it (every shard file and journal under it, through links to
// directories, marked Listed); a campaign of
// 100,000 shards keeps them in subfolders, and their names would not fit
// on one command line. A directory that holds none is the command line's
// mistake (exit 2).
func ShardFiles(paths []string) ([]nqueens.File, error) {
	var out []nqueens.File
	for _, p := range paths {
		st, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) && strings.ContainsAny(p, "*?[") {
			return nil, Usagef("%s: no such file: a shell pattern that matched no file is passed on as it is (a count's journals are removed once its shards finish, and --out alone makes none: name the files there are, or their folder)", msg.Quote(p))
		}
		if err != nil || !st.IsDir() {
			out = append(out, nqueens.File{Name: p}) // the library says what is wrong with it
			continue
		}
		listed, err := nqueens.DirFiles(p)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", p, err)
		}
		out = append(out, listed...)
		if len(listed) == 0 {
			return nil, Usagef("%s is a directory with no shard files or journals in it (accepted: files, or directories holding *.result and *.journal files)", p)
		}
	}
	return out, nil
}
