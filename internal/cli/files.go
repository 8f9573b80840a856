package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/nqueens/nqueens/internal/benchmark"
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
