//go:build unix

package main

import (
	"bytes"
	"io"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/long"
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

// TestTableRowsStayOnScreen runs table in a real terminal (tmux) with the
// progress bar shown: every row must still be on the screen at the end
// (the bar's redraw used to erase the row printed just before it).
func TestTableRowsStayOnScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a table in a terminal")
	}
	bin := nqueensBinary(t)
	for _, format := range []string{"markdown", "csv", "text"} {
		run := terminal(t, bin+" table 12 15 -m mirror -j 1 --format "+format+"; echo END; sleep 60")
		screen := waitScreen(t, run, regexp.MustCompile("END"))
		run("kill-server")
		for _, n := range []string{"12", "13", "14", "15"} {
			assert.Regexp(t, `(?m)^(\| |\s*)`+n+`\b`, screen, "%s: row %s on the screen:\n%s", format, n, screen)
		}
	}
}

// TestStopOnTerminal interrupts a count in a real terminal (tmux) with
// the bar shown: the stop messages stand on lines of their own, and no
// frozen bar is left above them.
func TestStopOnTerminal(t *testing.T) {
	long.Skip(t, "runs a count of n = 20 in a terminal and stops it: 13 s")
	run := terminal(t, nqueensBinary(t)+" count 20 -m sym -j 2 --grace 5s; echo END; sleep 60")
	defer run("kill-server")
	// Past planning: the bar shows work done (the waiting message comes
	// only while tasks run).
	waitScreen(t, run, regexp.MustCompile(`count 20 \(sym\)\s+[1-9][0-9]* % \[`))
	run("send-keys", "C-c")
	screen := waitScreen(t, run, regexp.MustCompile("END"))
	assert.Regexp(t, `(?m)^nqueens: stopping: waiting up to 5s`, screen)
	assert.Regexp(t, `(?m)^nqueens: interrupted by SIGINT`, screen)
	assert.NotContains(t, screen, " % [", "no bar left:\n%s", screen)
	assert.NotContains(t, screen, "cocount", screen)
}

// terminal starts command in a detached tmux session of 120×30 (skipping
// the test without tmux) and returns a function that runs tmux commands on
// it.
func terminal(t *testing.T, command string) func(args ...string) string {
	t.Helper()
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		t.Skip("no tmux")
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	run := func(args ...string) string {
		out, err := exec.Command(tmux, append([]string{"-S", sock}, args...)...).CombinedOutput()
		require.NoError(t, err, "tmux %v: %s", args, out)
		return string(out)
	}
	run("new-session", "-d", "-x", "120", "-y", "30", command)
	return run
}

// waitScreen returns the terminal's screen once it matches re, failing
// the test after a minute.
func waitScreen(t *testing.T, run func(args ...string) string, re *regexp.Regexp) string {
	t.Helper()
	var screen string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if screen = run("capture-pane", "-p"); re.MatchString(screen) {
			return screen
		}
	}
	t.Fatalf("no %s on the screen:\n%s", re, screen)
	return ""
}
