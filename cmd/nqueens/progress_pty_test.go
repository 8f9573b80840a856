//go:build unix

package main

import (
	"bytes"
	"io"
	"os/exec"
	"testing"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProgressTerminal runs count with stderr on a pseudo-terminal: a bar
// on a terminal that reports its width, status lines on one that reports
// none (a serial console, some CI runners), the count alone on stdout.
func TestProgressTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs counts in subprocesses")
	}
	bin := nqueensBinary(t)
	for _, tc := range []struct {
		cols uint16
		want string
	}{{100, "count 16 (sym)  100 % ["}, {0, "nqueens: count 16 (sym): "}} {
		ptmx, tty, err := pty.Open()
		require.NoError(t, err)
		require.NoError(t, pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: tc.cols}))
		var stdout bytes.Buffer
		cmd := exec.Command(bin, "count", "16", "-m", "sym", "-j", "1", "--progress-interval", "100ms")
		cmd.Stdout, cmd.Stderr = &stdout, tty
		require.NoError(t, cmd.Start())
		tty.Close()
		var errs bytes.Buffer
		copied := make(chan struct{})
		go func() {
			io.Copy(&errs, ptmx) // ends with EIO once the child exits
			close(copied)
		}()
		require.NoError(t, cmd.Wait())
		<-copied
		ptmx.Close()
		assert.Equal(t, "14772512\n", stdout.String(), "cols %d", tc.cols)
		assert.Contains(t, errs.String(), tc.want, "cols %d", tc.cols)
	}
}
