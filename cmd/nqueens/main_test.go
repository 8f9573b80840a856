package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/long"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"nqueens": func() { os.Exit(mainCode()) },
	})
}

// TestScripts runs the command as a user does: testdata/script/*.txtar,
// each in a working directory more than 200 bytes deep whose names hold
// spaces and non-ASCII letters ([deepDir]), as a cluster's scratch paths
// can be, so that no rule that holds only for short paths passes. Built
// with -race, each command exits without the race detector's second of
// waiting for late reports (GORACE atexit_sleep_ms=0: a command's
// goroutines have ended when it exits), which had taken most of the
// scripts' time under it.
func TestScripts(t *testing.T) {
	setup := func(env *testscript.Env) error {
		env.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
		return nil
	}
	testscript.Run(t, testscript.Params{Dir: "testdata/script", WorkdirRoot: deepDir(t), Setup: setup, Condition: func(cond string) (bool, error) {
		switch cond {
		case "long": // the long run (NQUEENS_LONG, as CI sets it)
			return long.Run(), nil
		case "plot": // built with -tags plot
			return benchmark.PNGBuilt, nil
		case "opencl": // an OpenCL device (CI installs pocl and requires one)
			return haveOpenCL()
		}
		return false, fmt.Errorf("unknown condition %q", cond)
	}})
}

// TestRunCancelled checks that a cancelled count prints nothing on stdout
// and reports the interruption.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&cli.SignalError{Sig: os.Interrupt})
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"count", "14"}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, cli.ExitInterrupted, cli.ExitCode(err, &stderr))
	assert.Empty(t, stdout.String())
	assert.Contains(t, stderr.String(), "nqueens: interrupted")
	assert.Contains(t, stderr.String(), "no count printed")
}

// TestManPages: the committed man pages (docs/man) are what 'nqueens man'
// writes from the current help texts and flags; regenerate them with
// go run ./cmd/nqueens man docs/man.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	runOK(t, "man", dir)
	want, err := os.ReadDir(filepath.Join("..", "..", cli.ManDir))
	require.NoError(t, err)
	got, err := os.ReadDir(dir)
	require.NoError(t, err)
	var wantNames, gotNames []string
	for _, e := range want {
		wantNames = append(wantNames, e.Name())
	}
	for _, e := range got {
		gotNames = append(gotNames, e.Name())
	}
	require.Equal(t, wantNames, gotNames, "the man pages: run go run ./cmd/nqueens man docs/man")
	for _, name := range gotNames {
		w, err := os.ReadFile(filepath.Join("..", "..", cli.ManDir, name))
		require.NoError(t, err)
		g, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.Equal(t, string(w), string(g), "%s is stale: run go run ./cmd/nqueens man docs/man", name)
	}
}

// TestReadmeCommands: the README's table of commands and flags is what
// the commands say now; regenerate it with
// go run ./cmd/nqueens man --readme README.md .
func TestReadmeCommands(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	tmp := filepath.Join(t.TempDir(), "README.md")
	require.NoError(t, os.WriteFile(tmp, want, 0o644))
	runOK(t, "man", "--readme", tmp, ".")
	got, err := os.ReadFile(tmp)
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "README.md's command table is stale: run go run ./cmd/nqueens man --readme README.md .")
}
