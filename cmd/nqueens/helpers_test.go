package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/resultfile"
)

// This file holds the helpers the command's tests share: running it in
// process or as a subprocess, reading and writing shard files, waiting
// for files, writers and readers that fail or block.

// runOK runs the command in process with args, requiring exit 0, and
// returns what it printed.
func runOK(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	require.NoError(t, err, "nqueens %s: stderr %s", strings.Join(args, " "), errb.String())
	return out.String(), errb.String()
}

// runErr runs the command in process with args, requiring a failure, and
// returns what it printed and its exit code.
func runErr(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	code = cli.ExitCode(err, &errb)
	return out.String(), errb.String(), code
}

// readResult reads a journal or shard file a test wrote.
func readResult(t *testing.T, path string) *resultfile.File {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := resultfile.Read(bytes.NewReader(b))
	require.NoError(t, err)
	return f
}

// writeResult writes a shard file of header h and recs with every
// checksum and the end line recomputed, as a forger would, and returns
// its path.
func writeResult(t *testing.T, path string, h resultfile.Header, recs []resultfile.Record) string {
	t.Helper()
	b := resultfile.AppendHeader(nil, h)
	for _, r := range recs {
		b = resultfile.AppendRecord(b, h, r)
	}
	require.NoError(t, os.WriteFile(path, resultfile.AppendEnd(b, h, recs), 0o644))
	return path
}

// shardFiles counts n in m shards into dir and returns the files.
func shardFiles(t *testing.T, dir string, n, m int, method string) []string {
	var files []string
	for i := 0; i < m; i++ {
		f := filepath.Join(dir, fmt.Sprintf("%s-%d-%d-of-%d.result", method, n, i, m))
		_, errs := runOK(t, "count", fmt.Sprint(n), "-m", method, "--shard", fmt.Sprintf("%d/%d", i, m), "--out", f, "-j", "2")
		assert.Contains(t, errs, "merge all shards")
		files = append(files, f)
	}
	return files
}

// nqueensBinary returns a path that runs this test binary as the nqueens
// command (TestMain dispatches on the name), for tests that need a real
// subprocess: signals, kill -9, a terminal.
func nqueensBinary(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(t.TempDir(), "nqueens")
	require.NoError(t, os.Symlink(self, bin))
	return bin
}

// deepDir makes a directory under t's temporary one more than 200 bytes
// deep, with spaces and non-ASCII letters in its names.
func deepDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for len(dir) <= 200 {
		dir = filepath.Join(dir, "campaña de cálculo — n≥28")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// runWithStdin runs the command in process with args and stdin.
func runWithStdin(stdin string, args []string, stdout, stderr *bytes.Buffer) error {
	return run(context.Background(), args, strings.NewReader(stdin), stdout, stderr)
}

// waitForJournal waits until a count has planned and begun its journal.
func waitForJournal(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.HasPrefix(b, []byte("nqueens journal")) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no journal at %s", path)
}

// waitForFile waits until path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	for range 500 {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s did not appear", path)
}

// liveHeapGrowth runs f and returns how far the live heap (as the garbage
// collector last measured it) rose above where it stood before, sampled
// every millisecond.
func liveHeapGrowth(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	base, peak := sample[0].Value.Uint64(), uint64(0)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(done)
	<-stopped
	return max(peak, base) - base
}

// watchWriter keeps what is written and calls found once it holds want.
type watchWriter struct {
	bytes.Buffer
	want  string
	found func()
}

func (w *watchWriter) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	if strings.Contains(w.Buffer.String(), w.want) {
		w.found()
	}
	return n, err
}

// failWriter fails every write, as a full disk or a closed terminal does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

type blockingReader struct{}

func (blockingReader) Read([]byte) (int, error) { select {} }

// pipeWriter accepts one line, then reports a closed pipe (| head -1).
type pipeWriter struct{ lines int }

func (w *pipeWriter) Write(p []byte) (int, error) {
	if w.lines > 0 {
		return 0, syscall.EPIPE
	}
	w.lines += bytes.Count(p, []byte("\n"))
	return len(p), nil
}

// waitForTasks waits until the journal at path holds at least k task lines.
func waitForTasks(t *testing.T, path string, k int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.Count(b, []byte("\ntask ")) >= k {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no %d task lines in %s", k, path)
}

// haveOpenCL reports whether an OpenCL device is found; where none is and
// NQUEENS_REQUIRE_OPENCL is set (CI, which installs pocl), an error.
func haveOpenCL() (bool, error) {
	infos, err := backend.Select("opencl")
	if len(infos) == 0 && os.Getenv("NQUEENS_REQUIRE_OPENCL") != "" {
		return false, fmt.Errorf("NQUEENS_REQUIRE_OPENCL is set but there is no OpenCL device (%v)", err)
	}
	return len(infos) > 0, nil
}

// requireOpenCL skips the test where no OpenCL device is found, and fails
// it where one is required (haveOpenCL).
func requireOpenCL(t *testing.T) {
	t.Helper()
	ok, err := haveOpenCL()
	require.NoError(t, err)
	if !ok {
		t.Skip("no OpenCL device: install pocl-opencl-icd to run this test")
	}
}
