//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/long"
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
			assert.Equal(t, tc.code, exitAfterSignal(t, cmd, 2*time.Minute, &stderr))
			assert.Empty(t, stdout.String())
			assert.Regexp(t, `^nqueens: interrupted by .*: stopped after \d+ of \d+ tasks.*; \d+ tasks are saved in .*n21.journal: run the same command again to resume; no count printed\n$`, stderr.String())
		})
	}
}

// TestSignalsOnDevice stops counts on an OpenCL device (pocl in CI) after
// its runtime has loaded and counted: pocl's LLVM installs handlers of its
// own for SIGINT, SIGTERM and SIGUSR1, and had kept SIGUSR1 from the
// command, so that a scheduler's warning went unheard. Each signal ends
// the count with its exit code and a journal to resume from, on one
// device and on all, by the join and by sym, and in a --dir range.
func TestSignalsOnDevice(t *testing.T) {
	if testing.Short() {
		t.Skip("starts long counts on a device in subprocesses")
	}
	requireOpenCL(t)
	bin := nqueensBinary(t)
	for _, tc := range []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
	}{
		{"join/USR1", []string{"count", "19", "--device", "opencl"}, syscall.SIGUSR1, cli.ExitUser1},
		{"join/TERM", []string{"count", "19", "--device", "opencl"}, syscall.SIGTERM, cli.ExitTerminated},
		{"join/INT", []string{"count", "19", "--device", "opencl"}, syscall.SIGINT, cli.ExitInterrupted},
		{"sym/USR1", []string{"count", "17", "--method", "sym", "--device", "opencl"}, syscall.SIGUSR1, cli.ExitUser1},
		{"all/USR1", []string{"count", "19", "--device", "all", "-j", "1"}, syscall.SIGUSR1, cli.ExitUser1},
		{"dir/USR1", []string{"count", "19", "--device", "opencl", "--shard", "0-3/4"}, syscall.SIGUSR1, cli.ExitUser1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.sig != syscall.SIGUSR1 && !long.Run() {
				t.Skip("SIGTERM and SIGINT, which the runtime passes on: NQUEENS_LONG")
			}
			dir := t.TempDir()
			args := append(tc.args, "--grace", "100ms", "-q")
			journal := filepath.Join(dir, "run.journal")
			if slices.Contains(args, "--shard") {
				args = append(args, "--dir", dir)
				journal = filepath.Join(dir, "000", "shard0.journal")
			} else {
				args = append(args, "--checkpoint", journal)
			}
			cmd := exec.Command(bin, args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			waitForTasks(t, journal, 1) // the runtime loaded, and a task counted on it
			require.NoError(t, cmd.Process.Signal(tc.sig))
			assert.Equal(t, tc.code, exitAfterSignal(t, cmd, time.Minute, &stderr), "stderr: %s", stderr.String())
			assert.Empty(t, stdout.String())
			assert.Regexp(t, `nqueens: interrupted by SIG`+strings.TrimPrefix(tc.name[strings.Index(tc.name, "/")+1:], "SIG")+`: stopped after \d+ of \d+ tasks.*saved in .*journal: run the same command again to resume`, stderr.String())
		})
	}
}

// TestDevNullStdout: a count whose standard output is /dev/null, opened
// write-only by a shell, read-write by Python's subprocess.DEVNULL or a
// supervisor, or put there by Go's runtime in a closed descriptor's
// place (>&-, which cannot be told apart from the read-write case), is
// written as usual and exits 0.
func TestDevNullStdout(t *testing.T) {
	bin := nqueensBinary(t)
	for _, redirect := range []string{">/dev/null", "1<>/dev/null", ">&-"} {
		cmd := exec.Command("bash", "-c", `"$0" count 12 `+redirect, bin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		assert.NoError(t, cmd.Run(), "%s: stderr %s", redirect, stderr.String())
		assert.Empty(t, stderr.String(), redirect)
	}
	// As os/exec callers and Python's subprocess.DEVNULL do: /dev/null
	// opened read-write and passed as the child's standard output.
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	require.NoError(t, err)
	defer null.Close()
	cmd := exec.Command(bin, "count", "12")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = null, &stderr
	assert.NoError(t, cmd.Run(), "stderr: %s", stderr.String())
	assert.Empty(t, stderr.String())
}

// exitAfterSignal waits up to limit for a signalled command to exit, and
// returns its exit code; it fails the test (showing stderr) if the
// command goes on or exits 0.
func exitAfterSignal(t *testing.T, cmd *exec.Cmd, limit time.Duration, stderr *bytes.Buffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		t.Fatalf("%v did not stop after the signal; stderr: %s", cmd.Args, stderr.String())
	}
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "want an exit error, got %v; stderr: %s", err, stderr.String())
	return exit.ExitCode()
}
