package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/internal/resultfile"
)

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

// TestForeignLines: a line copied from another count's journal (another
// n, method or placement) is never counted, by resume or by merge.
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
			assert.Equal(t, cli.ExitFailure, code, "%v with a line of %v", args, other)
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
// what its task can hold is refused outright.
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
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "audit: task ")
	assert.Contains(t, errs, "in "+plus8)
	assert.Contains(t, errs, "recounts to")
	_, errs, code = runErr(t, "status", "--audit", "1", files[0], plus8, files[2])
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "audit: task ")
	_, errs = runOK(t, append([]string{"merge", "--audit", "0.5"}, files...)...)
	assert.Regexp(t, `audit: [0-9]+ tasks recounted \(--audit 0.5 --audit-seed [0-9]+\), all agree`, errs)
	_, errs = runOK(t, append([]string{"merge", "--audit", "0"}, files...)...)
	assert.Contains(t, errs, "audit: 0 tasks recounted")
	// --memory bounds the recount; without an audit it has nothing to bound.
	_, errs = runOK(t, append([]string{"merge", "--audit", "0.5", "--memory", "256MiB"}, files...)...)
	assert.Contains(t, errs, "all agree")
	_, errs, code = runErr(t, append([]string{"merge", "--memory", "256MiB"}, files...)...)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "--memory bounds an audit's recount: give --audit FRACTION too")
	// A total no task can hold.
	huge := forge("huge.result", func(r *resultfile.Record) { r.TotalHi[0] = 1 << 6 })
	_, errs, code = runErr(t, "merge", files[0], huge, files[2])
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "more than it can hold")
	_, errs, code = runErr(t, append([]string{"merge", "--audit", "1.5"}, files...)...)
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "audit fraction 1.5 is not between 0 and 1")
}

// TestAuditUnpredictable: the audit's sample is drawn afresh at every
// merge, so a forger who edits a task that one seed's sample skips is
// caught by the next audits (the seed was a constant, so
// 'merge --audit 0.95' passed a forged n = 14 every time); the seed each
// audit prints repeats it exactly.
func TestAuditUnpredictable(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 14, 2, "join")
	f := readResult(t, files[1])
	recs := append([]resultfile.Record(nil), f.Records...)
	recs[len(recs)/2].Total += 8
	forged := []string{files[0], writeResult(t, filepath.Join(dir, "forged.result"), f.Header, recs)}
	seedOf := regexp.MustCompile(`--audit-seed ([0-9]+)\)`)

	// The forger's seed: one whose sample skips the edited task.
	skips := ""
	for s := 1; s <= 64 && skips == ""; s++ {
		if _, errs, code := runErr(t, append([]string{"merge", "--audit", "0.5", "--audit-seed", strconv.Itoa(s)}, forged...)...); code == 0 {
			skips = strconv.Itoa(s)
			assert.Contains(t, errs, "--audit-seed "+skips+"), all agree", "the audit names its seed")
		}
	}
	require.NotEmpty(t, skips, "no seed of 64 skips the task at fraction 0.5")
	out, _ := runOK(t, append([]string{"merge", "--audit", "0.5", "--audit-seed", skips}, forged...)...)
	assert.Equal(t, "365604\n", out, "that seed's audit repeats exactly, and misses the line")

	// Fresh audits: each catches it with chance 0.95; five all missing it
	// has a chance of 3e-7.
	caught := 0
	for range 5 {
		if _, errs, code := runErr(t, append([]string{"merge", "--audit", "0.95"}, forged...)...); code == cli.ExitFailure {
			assert.Contains(t, errs, "audit: task ")
			caught++
		}
	}
	assert.Positive(t, caught, "five fresh audits at 0.95 missed the forged line")

	// A clean audit's printed seed repeats its sample.
	_, errs := runOK(t, append([]string{"merge", "--audit", "0.3"}, files...)...)
	m := seedOf.FindStringSubmatch(errs)
	require.NotNil(t, m, errs)
	_, again := runOK(t, append([]string{"merge", "--audit", "0.3", "--audit-seed", m[1]}, files...)...)
	assert.Equal(t, errs, again)
	_, errs, code := runErr(t, "merge", "--audit-seed", "3", files[0])
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "--audit-seed repeats an audit: give --audit FRACTION too")
}

// TestCorruptNamed: merge, status and an audit name the file whose line
// is damaged, among many ("corrupt file: line 2: checksum
// mismatch" named none).
func TestCorruptNamed(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 12, 3, "sym")
	b, err := os.ReadFile(files[1])
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	lines[1] = strings.Replace(lines[1], " ", "  ", 1)
	require.NoError(t, os.WriteFile(files[1], []byte(strings.Join(lines, "")), 0o644))
	for _, args := range [][]string{{"merge"}, {"status"}, {"merge", "--audit", "0.5"}, {"status", "--audit", "1"}} {
		_, errs, code := runErr(t, append(args, files...)...)
		assert.Equal(t, cli.ExitFailure, code, "%v", args)
		assert.Contains(t, errs, "nqueens: "+files[1]+": corrupt file: line 2: ", "%v", args)
	}
}

// TestEditedShardCount: a shard file whose header claims a billion shards
// (checksums recomputed) is refused before anything is sized by it, by
// merge and status.
func TestEditedShardCount(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 10, 2, "sym")
	f := readResult(t, files[0])
	h := f.Header
	h.Shards = 1_000_000_000
	p := writeResult(t, filepath.Join(dir, "edited.result"), h, f.Records)
	for _, cmd := range []string{"merge", "status"} {
		_, errs, code := runErr(t, cmd, p)
		assert.Equal(t, cli.ExitFailure, code, cmd)
		assert.Contains(t, errs, "its header claims 23 tasks in 1000000000 shards, but the plan has 23 tasks (and at most 1024 shards)", cmd)
	}
}
