package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/resultfile"
)

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
