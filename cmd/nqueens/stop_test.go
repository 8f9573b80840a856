package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
)

// TestStopsOnSignal: commands that read, plan or search for long stop on
// a signal with its exit code.
func TestStopsOnSignal(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		stdin io.Reader
	}{
		{[]string{"verify"}, blockingReader{}}, // a pipe whose writer thinks
		{[]string{"list", "64"}, nil},          // a search that finds little
		{[]string{"count", "64"}, nil},         // a minute of planning
		{[]string{"count", "64", "-m", "mirror"}, nil},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(200*time.Millisecond, func() { cancel(&cli.SignalError{Sig: syscall.SIGTERM}) })
		stdin := tc.stdin
		if stdin == nil {
			stdin = strings.NewReader("")
		}
		var stdout, stderr bytes.Buffer
		err := run(ctx, tc.args, stdin, &stdout, &stderr)
		assert.Equal(t, cli.ExitTerminated, cli.ExitCode(err, &stderr), "%v: %s", tc.args, stderr.String())
		assert.Contains(t, stderr.String(), "interrupted by SIGTERM", "%v", tc.args)
		cancel(nil)
	}
}

// TestSecondSignal: a second Ctrl-C stops a count at once instead of
// waiting out the grace period, and the journal keeps what was counted.
func TestSecondSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a count in a subprocess")
	}
	bin := nqueensBinary(t)
	j := filepath.Join(t.TempDir(), "n21.journal")
	cmd := exec.Command(bin, "count", "21", "-j", "2", "--checkpoint", j, "--grace", "10m")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	waitForJournal(t, j)
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	sc := bufio.NewScanner(stderr)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.Contains(sc.Text(), "Ctrl-C again to stop now") {
			require.NoError(t, cmd.Process.Signal(os.Interrupt))
		}
	}
	err = cmd.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr: %v", lines)
	assert.Equal(t, cli.ExitInterrupted, exit.ExitCode())
	all := strings.Join(lines, "\n")
	assert.Contains(t, all, "waiting up to 10m0s for the running tasks to finish; Ctrl-C again to stop now")
	assert.Contains(t, all, "were abandoned at the second interrupt")
	assert.NotContains(t, all, "grace period were abandoned", "the grace period did not end")
	assert.Contains(t, all, "run the same command again to resume")
}
