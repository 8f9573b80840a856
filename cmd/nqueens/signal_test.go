//go:build unix

package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
)

// TestSignals interrupts a real count in a subprocess: SIGINT exits 130,
// SIGTERM 143 and SIGUSR1 138, with nothing on stdout and one line on
// stderr; with a checkpoint the line says how to resume.
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a long count in a subprocess")
	}
	bin := nqueensBinary(t)
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, cli.ExitInterrupted}, {syscall.SIGTERM, cli.ExitTerminated}, {syscall.SIGUSR1, cli.ExitUser1}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			journal := filepath.Join(t.TempDir(), "n21.journal")
			cmd := exec.Command(bin, "count", "21", "-j", "2", "--checkpoint", journal, "--grace", "100ms")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			waitForJournal(t, journal) // planned, and counting
			require.NoError(t, cmd.Process.Signal(tc.sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			select {
			case err = <-done:
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatal("count did not stop after the signal")
			}
			var exit *exec.ExitError
			require.True(t, errors.As(err, &exit), "want an exit error, got %v", err)
			assert.Equal(t, tc.code, exit.ExitCode())
			assert.Empty(t, stdout.String())
			assert.Regexp(t, `^nqueens: interrupted by .*: stopped after \d+ of \d+ tasks.*; \d+ tasks are saved in .*n21.journal: run the same command again to resume; no count printed\n$`, stderr.String())
		})
	}
}
