//go:build !unix

package cli

import (
	"io"
	"os"
)

// Stdout is os.Stdout (see stdout_unix.go for what it checks on Unix).
func Stdout() io.Writer { return os.Stdout }
