package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
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
	"github.com/nqueens/nqueens/internal/resultfile"
)

// failWriter fails every write, as a full disk or a closed terminal does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestWriteFailureExitsOne: a failed write of the result is a failure (exit
// 1), not bad input (2), for every command that prints one.
func TestWriteFailureExitsOne(t *testing.T) {
	dir := t.TempDir()
	shard := filepath.Join(dir, "all.journal")
	runOK(t, "count", "10", "--checkpoint", shard)
	for _, args := range [][]string{
		{"count", "12"}, {"count", "12", "--json"}, {"merge", shard}, {"merge", "--json", shard},
		{"solve", "8"}, {"table", "4", "8"}, {"table", "4", "8", "--format", "csv"}, {"verify", "1 3 0 2"},
		{"list", "6"}, {"status", shard},
	} {
		var errb bytes.Buffer
		err := run(context.Background(), args, strings.NewReader(""), failWriter{}, &errb)
		assert.Equal(t, cli.ExitFailure, cli.ExitCode(err, &errb), "%v: %s", args, errb.String())
	}
}

// TestJournalDuplicates: resume and merge apply one rule to a task given
// twice: identical counts are accepted once, different ones refused.
func TestJournalDuplicates(t *testing.T) {
	dir := t.TempDir()
	j := filepath.Join(dir, "n12.journal")
	runOK(t, "count", "12", "-m", "mirror", "--checkpoint", j)
	b, err := os.ReadFile(j)
	require.NoError(t, err)
	f, err := resultfile.Read(bytes.NewReader(b))
	require.NoError(t, err)
	last := f.Records[len(f.Records)-1]

	same := filepath.Join(dir, "same.journal")
	require.NoError(t, os.WriteFile(same, resultfile.AppendRecord(bytes.Clone(b), f.Header, last), 0o644))
	out, errs := runOK(t, "count", "12", "-m", "mirror", "--checkpoint", same)
	assert.Equal(t, "14200\n", out)
	assert.Contains(t, errs, "identical counts")
	out, _ = runOK(t, "merge", same)
	assert.Equal(t, "14200\n", out)

	last.Total += 2
	other := filepath.Join(dir, "other.journal")
	require.NoError(t, os.WriteFile(other, resultfile.AppendRecord(bytes.Clone(b), f.Header, last), 0o644))
	for _, args := range [][]string{{"count", "12", "-m", "mirror", "--checkpoint", other}, {"merge", other}} {
		out, errs, code := runErr(t, args...)
		assert.Equal(t, cli.ExitFailure, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Contains(t, errs, "has different counts", "%v", args)
	}

	// A journal with an end line (which journals never have) is refused,
	// not appended to.
	ended := filepath.Join(dir, "ended.journal")
	require.NoError(t, os.WriteFile(ended, resultfile.AppendEnd(bytes.Clone(b), f.Header, f.Records), 0o644))
	_, errs, code := runErr(t, "count", "12", "-m", "mirror", "--checkpoint", ended)
	assert.Equal(t, cli.ExitUsage, code, "bad input, as the docs say")
	assert.Contains(t, errs, "has an end line")
	after, err := os.ReadFile(ended)
	require.NoError(t, err)
	assert.Equal(t, resultfile.AppendEnd(bytes.Clone(b), f.Header, f.Records), after, "left as it was")
}

// TestMergeShape: merge checks a shard file's shard against its tasks and
// names Windows line endings as the cause.
func TestMergeShape(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 10, 3, "sym")
	f := readResult(t, files[1])
	f.Header.Shard = 2 // shard 1's tasks, labelled shard 2
	bad := writeResult(t, filepath.Join(dir, "moved.result"), f.Header, f.Records)
	_, errs, code := runErr(t, "merge", files[0], files[1], bad)
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, `moved.result: task "1.4" is not one of shard 2/3's tasks (it belongs to another shard, or to none`)
	_, errs, _ = runErr(t, "merge", files[0], bad, files[2])
	assert.Contains(t, errs, "1 of 3 shards have no file; missing or incomplete shards of 3: 1", "before planning, from the headers")

	b, err := os.ReadFile(files[1])
	require.NoError(t, err)
	crlf := filepath.Join(dir, "crlf.result")
	require.NoError(t, os.WriteFile(crlf, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")), 0o644))
	_, errs, code = runErr(t, "merge", files[0], crlf, files[2])
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "CR LF")
}

// TestOutLeavesNothing: a count stopped before it finishes leaves no
// temporary file beside --out, and no --out.
func TestOutLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.result")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&cli.SignalError{Sig: os.Interrupt})
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"count", "14", "--shard", "0/2", "--out", out}, strings.NewReader(""), &stdout, &stderr)
	assert.Equal(t, cli.ExitInterrupted, cli.ExitCode(err, &stderr))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing left in %s", dir)
}

// TestLongMessages: a 5 MB token gets a short line on stderr.
func TestLongMessages(t *testing.T) {
	_, errs, code := runErr(t, "verify", "1 3 "+strings.Repeat("x", 5<<20))
	assert.Equal(t, cli.ExitUsage, code)
	assert.Less(t, len(errs), 300, "stderr: %.300s", errs)
}

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

// TestListStreams: the first solution of a large board comes at once and
// a closed pipe ends the listing quietly (list 30 | head -1 used to print
// nothing in 11 minutes).
func TestListStreams(t *testing.T) {
	w := &pipeWriter{}
	var stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"list", "30"}, strings.NewReader(""), w, &stderr))
	assert.Equal(t, 1, w.lines)
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

// TestTwoRunsOneJournal: a second run on a journal another process is
// writing is refused at once, naming the holder; the first one's journal
// then resumes to the right count (it used to be corrupted).
func TestTwoRunsOneJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a count in a subprocess")
	}
	bin := nqueensBinary(t)
	j := filepath.Join(t.TempDir(), "n16.journal")
	first := exec.Command(bin, "count", "16", "-m", "mirror", "-j", "1", "--checkpoint", j)
	require.NoError(t, first.Start())
	waitForJournal(t, j)
	out, errs, code := runErr(t, "count", "16", "-m", "mirror", "-j", "1", "--checkpoint", j)
	assert.Equal(t, cli.ExitFailure, code)
	assert.Empty(t, out)
	if runtime.GOOS == "linux" { // only Linux tells who holds a lock
		assert.Contains(t, errs, fmt.Sprintf("n16.journal is locked by another nqueens run (process %d), which is writing it (wait for it to finish, or use another file)", first.Process.Pid))
	}
	assert.Contains(t, errs, "is locked by another nqueens run")
	require.NoError(t, first.Wait())
	out, _ = runOK(t, "count", "16", "-m", "mirror", "--checkpoint", j)
	assert.Equal(t, "14772512\n", out)
}

// TestTwoRunsOneOut: a second run on a shard file another process is
// writing is refused at once, naming the holder, and the first one's file
// is the one that stays (both finished, the second
// overwrote the first's shard).
func TestTwoRunsOneOut(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a count in a subprocess")
	}
	bin := nqueensBinary(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "same.r")
	j := filepath.Join(dir, "s0.journal")
	first := exec.Command(bin, "count", "16", "-m", "mirror", "-j", "1", "--shard", "0/2", "--out", out, "--checkpoint", j)
	require.NoError(t, first.Start())
	waitForJournal(t, j) // the shard file's lock is taken before the journal
	stdout, errs, code := runErr(t, "count", "16", "-m", "mirror", "-j", "1", "--shard", "1/2", "--out", out)
	assert.Equal(t, cli.ExitFailure, code)
	assert.Empty(t, stdout)
	if runtime.GOOS == "linux" {
		assert.Contains(t, errs, fmt.Sprintf("same.r is locked by another nqueens run (process %d), which is writing it (wait for it to finish, or use another file)", first.Process.Pid))
	}
	assert.Contains(t, errs, "nqueens: --out: ")
	require.NoError(t, first.Wait())
	assert.Equal(t, 0, readResult(t, out).Header.Shard, "the first run's shard stays")
	_, _, code = runErr(t, "merge", out)
	assert.Equal(t, cli.ExitFailure, code, "shard 1 is missing, not written over shard 0")
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

// TestOutSparesJournal: a shard file is never written over a journal,
// whether another process is writing that journal or has been killed
// mid-count (--out renamed a shard file over a live
// journal, whose resume then failed "belongs to another count"), and a
// journal is never begun on a path a shard file's run holds. The killed
// count resumes from its journal afterwards.
func TestOutSparesJournal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a count in a subprocess")
	}
	bin := nqueensBinary(t)
	dir := t.TempDir()
	j := filepath.Join(dir, "J.journal")
	first := exec.Command(bin, "count", "17", "-j", "1", "-m", "sym", "--checkpoint", j)
	require.NoError(t, first.Start())
	waitForJournal(t, j)

	// While it runs: --out on its journal is refused (the path's one lock).
	stdout, errs, code := runErr(t, "count", "14", "-j", "1", "--shard", "0/2", "--out", j)
	assert.Equal(t, cli.ExitFailure, code, errs)
	assert.Empty(t, stdout)
	assert.Contains(t, errs, "J.journal is locked by another nqueens run")

	// Killed with -9: the journal stays a journal, and --out still refuses
	// it, now by what it holds (exit 2: pick another name).
	require.NoError(t, first.Process.Kill())
	first.Wait()
	stdout, errs, code = runErr(t, "count", "14", "-j", "1", "--shard", "0/2", "--out", j)
	assert.Equal(t, cli.ExitUsage, code, errs)
	assert.Empty(t, stdout)
	assert.Contains(t, errs, "J.journal is the journal of a count (n = 17 (queen, sym))")
	assert.Equal(t, resultfile.Journal, readResult(t, j).Header.Kind)

	// The reverse: a shard file's run holds its path, so a journal cannot
	// be begun there meanwhile.
	out := filepath.Join(dir, "O.result")
	second := exec.Command(bin, "count", "17", "-j", "1", "-m", "mirror", "--shard", "0/2", "--out", out)
	require.NoError(t, second.Start())
	waitForFile(t, resultfile.LockName(out))
	stdout, errs, code = runErr(t, "count", "16", "-j", "1", "-m", "sym", "--checkpoint", out)
	assert.Equal(t, cli.ExitFailure, code, errs)
	assert.Empty(t, stdout)
	assert.Contains(t, errs, "O.result is locked by another nqueens run")
	second.Process.Kill()
	second.Wait()

	// And the killed count's journal is still its own: status reads it
	// (its resume is TestKill9Resume's).
	stdout, _ = runOK(t, "status", j)
	assert.Contains(t, stdout, "count 17 (sym)")
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

// TestDuplicatedJournalBounded: a journal of n = 12 whose few hundred
// task lines are repeated to 400,000 lines (15 MB: a forged or runaway
// file) costs merge, status and a resume what the plan's tasks need, not
// what the file holds (a 140 MB journal took 1.3 GB),
// and its total is right. The live heap is sampled while each runs
// (a child's peak RSS would not do: Linux carries the parent's over exec).
func TestDuplicatedJournalBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 15 MB file and reads it three times")
	}
	dir := t.TempDir()
	j := filepath.Join(dir, "n12.journal")
	runOK(t, "count", "12", "-m", "mirror", "--checkpoint", j)
	f := readResult(t, j)
	b, err := os.ReadFile(j)
	require.NoError(t, err)
	var lines []byte
	for _, r := range f.Records {
		lines = resultfile.AppendRecord(lines, f.Header, r)
	}
	big, err := os.OpenFile(j, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	w := bufio.NewWriterSize(big, 1<<20)
	for n := len(f.Records); n < 400_000; n += len(f.Records) {
		w.Write(lines)
	}
	require.NoError(t, w.Flush())
	require.NoError(t, big.Close())
	st, err := os.Stat(j)
	require.NoError(t, err)
	require.Greater(t, st.Size(), 50*int64(len(b)), "the journal is large")
	for _, args := range [][]string{
		{"merge", j}, {"status", j}, {"count", "12", "-m", "mirror", "--checkpoint", j},
	} {
		var out string
		grown := liveHeapGrowth(func() { out, _ = runOK(t, args...) })
		if args[0] != "status" {
			assert.Equal(t, "14200\n", out, "%v", args)
		}
		// Holding every line grew the heap by 85 MB here (nqueens 0.3.0
		// at ff1a512); reading it into the ledger, by a few MB.
		assert.Less(t, grown, uint64(40<<20), "%v: the live heap grew by %d bytes", args, grown)
	}
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

// TestLongCountSaysSo: a count past an hour on its workers says so on
// stderr within seconds, before counting, with core-hours, the wall time
// and the command for a closer figure; a short one
// says nothing and spends nothing on it.
func TestLongCountSaysSo(t *testing.T) {
	if testing.Short() {
		t.Skip("plans n = 24 and calibrates for 2 s")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "is long", found: cancel}
	start := time.Now()
	err := run(ctx, []string{"count", "24", "-j", "1", "--grace", "0s"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Less(t, time.Since(start), 30*time.Second)
	assert.Regexp(t, `^nqueens: count 24 \(join\) is long: about [0-9.,]+ core-hours \(95%: [0-9.,]+ core-hours to [0-9.,]+ core-hours\) on this machine, [0-9.]+ (days|hours) on 1 worker; 'nqueens plan 24 -m join --sample 5m' gives a closer figure`, w.String())
}

// TestLongCountPastPublished: a count past the published counts and the
// calibration (n = 40 by sym: years a task) says what it costs from the
// cost model within a second, and a stop does not wait a grace period
// that no running task could finish in.
func TestLongCountPastPublished(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := &watchWriter{want: "is long", found: cancel}
	start := time.Now()
	err := run(ctx, []string{"count", "40", "-j", "1"}, strings.NewReader(""), io.Discard, w)
	require.Error(t, err, "cancelled once it spoke")
	assert.Less(t, time.Since(start), 10*time.Second, "neither the warning nor the stop waited")
	assert.Regexp(t, `^nqueens: count 40 \(sym\) is long: about .* core-hours \(95%: .* to .*\) by the published counts, extrapolated past n = 27, on the reference machine, .* years on 1 worker; 'nqueens plan 40 -m sym --sample 5m' gives a closer figure`, w.String())
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
