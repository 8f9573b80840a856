package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/resultfile"
)

// TestForeignLines: a line copied from another count's journal (another
// n, method or placement) is never counted, by resume or by merge
// (issue 22, case 1).
func TestForeignLines(t *testing.T) {
	dir := t.TempDir()
	journal := func(name string, args ...string) []byte {
		j := filepath.Join(dir, name)
		runOK(t, append(append([]string{"count"}, args...), "--checkpoint", j)...)
		b, err := os.ReadFile(j)
		require.NoError(t, err)
		return b
	}
	mine := journal("n12.journal", "12", "-m", "mirror")
	lines := strings.SplitAfter(string(mine), "\n")
	half := strings.Join(lines[:len(lines)/2], "")
	for _, other := range [][]string{{"14", "-m", "mirror"}, {"12", "-m", "sym"}, {"12", "--place", "0:1"}} {
		o := strings.SplitAfter(string(journal(strings.Join(other, "_")+".journal", other...)), "\n")
		// One foreign line in the middle of the half journal.
		j := filepath.Join(dir, "mixed.journal")
		mixed := strings.Join(lines[:len(lines)/4], "") + o[1] + strings.Join(lines[len(lines)/4:len(lines)/2], "")
		require.NoError(t, os.WriteFile(j, []byte(mixed), 0o644))
		for _, args := range [][]string{{"count", "12", "-m", "mirror", "--checkpoint", j}, {"merge", j}} {
			out, errs, code := runErr(t, args...)
			assert.Equal(t, exitFailure, code, "%v with a line of %v", args, other)
			assert.Empty(t, out)
			assert.Contains(t, errs, "copied from another count's file", "%v", other)
		}
		// At the end of a journal it reads as a torn line: dropped, and
		// the count is exact.
		require.NoError(t, os.WriteFile(j, []byte(half+o[1]), 0o644))
		out, _ := runOK(t, "count", "12", "-m", "mirror", "--checkpoint", j)
		assert.Equal(t, "14200\n", out, "a line of %v at the end", other)
	}
}

// TestForgedLines: a line whose count is changed and whose checksums are
// recomputed passes merge's file checks, but not an audit; a total above
// what its task can hold is refused outright (issue 22, case 2).
func TestForgedLines(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 12, 3, "join")
	f := readResult(t, files[1])
	forge := func(name string, change func(*resultfile.Record)) string {
		recs := append([]resultfile.Record(nil), f.Records...)
		change(&recs[len(recs)/2])
		return writeResult(t, filepath.Join(dir, name), f.Header, recs)
	}
	// +8 keeps Burnside's division: merge alone cannot tell.
	plus8 := forge("plus8.result", func(r *resultfile.Record) { r.Total += 8 })
	out, _ := runOK(t, "merge", files[0], plus8, files[2])
	assert.Equal(t, "14208\n", out, "merge without an audit trusts well-formed lines")
	_, errs, code := runErr(t, "merge", "--audit", "1", files[0], plus8, files[2])
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "audit: task ")
	assert.Contains(t, errs, "in "+plus8)
	assert.Contains(t, errs, "recounts to")
	_, errs, code = runErr(t, "status", "--audit", "1", files[0], plus8, files[2])
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "audit: task ")
	_, errs = runOK(t, append([]string{"merge", "--audit", "0.5"}, files...)...)
	assert.Regexp(t, `audit: [0-9]+ tasks recounted \(--audit 0.5\), all agree`, errs)
	_, errs = runOK(t, append([]string{"merge", "--audit", "0"}, files...)...)
	assert.Contains(t, errs, "audit: 0 tasks recounted")
	// A total no task can hold.
	huge := forge("huge.result", func(r *resultfile.Record) { r.TotalHi[0] = 1 << 6 })
	_, errs, code = runErr(t, "merge", files[0], huge, files[2])
	assert.Equal(t, exitFailure, code)
	assert.Contains(t, errs, "more than it can hold")
	_, errs, code = runErr(t, append([]string{"merge", "--audit", "1.5"}, files...)...)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errs, "audit fraction 1.5 is not between 0 and 1")
}

// TestEditedShardCount: a shard file whose header claims a billion shards
// (checksums recomputed) is refused before anything is sized by it, by
// merge and status (issue 22, case 4).
func TestEditedShardCount(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 10, 2, "sym")
	f := readResult(t, files[0])
	h := f.Header
	h.Shards = 1_000_000_000
	p := writeResult(t, filepath.Join(dir, "edited.result"), h, f.Records)
	for _, cmd := range []string{"merge", "status"} {
		_, errs, code := runErr(t, cmd, p)
		assert.Equal(t, exitFailure, code, cmd)
		assert.Contains(t, errs, "its header claims 23 tasks in 1000000000 shards, but the plan has 23 tasks (and at most 1024 shards)", cmd)
	}
}

// TestWorkersFollowAffinity: the default workers are the CPUs the process
// may run on, not the host's cores (issue 23).
func TestWorkersFollowAffinity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a subprocess")
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("no taskset")
	}
	out, err := exec.Command(taskset, "-c", "0", nqueensBinary(t), "count", "12", "--json").Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), `"workers":1,`)
}
