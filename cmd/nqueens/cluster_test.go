package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
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
	"github.com/nqueens/nqueens/cmd/nqueens/internal/report"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// TestShardsMerge merges shard files in random orders: always the
// one-machine total, for several n and M, M beyond the number of tasks too.
func TestShardsMerge(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		n, m   int
		method string
	}{{8, 3, "sym"}, {10, 7, "mirror"}, {11, 2, "sym"}, {5, 40, "sym"}, {6, 9, "mirror"}, {12, 16, "sym"}, {1, 3, "mirror"}, {0, 2, "sym"},
		{13, 5, "join"}, {12, 64, "join"}, {9, 2, "join"}, {0, 3, "join"}} {
		files := shardFiles(t, dir, tc.n, tc.m, tc.method)
		rng.Shuffle(len(files), func(a, b int) { files[a], files[b] = files[b], files[a] })
		out, _ := runOK(t, append([]string{"merge", "--json"}, files...)...)
		var rep report.Count
		require.NoError(t, json.Unmarshal([]byte(out), &rep))
		assert.Equal(t, fmt.Sprint(known.Total[tc.n]), rep.Total, "n=%d M=%d %s", tc.n, tc.m, tc.method)
		if tc.method != "mirror" {
			assert.Equal(t, fmt.Sprint(known.Unique[tc.n]), rep.Unique, "n=%d M=%d %s", tc.n, tc.m, tc.method)
			assert.Equal(t, fmt.Sprint(known.Rot90Sym[tc.n]), rep.Rot90Sym, "n=%d M=%d %s", tc.n, tc.m, tc.method)
		}
	}
}

// TestMergeMixed merges shard files with a journal of the remaining shard,
// and with a journal of the whole count (every task then appears twice,
// identically).
func TestMergeMixed(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 11, 3, "sym")
	j := filepath.Join(dir, "shard2.journal")
	runOK(t, "count", "11", "--shard", "2/3", "--checkpoint", j)
	out, _ := runOK(t, "merge", files[0], j, files[1])
	assert.Equal(t, "2680\n", out)
	whole := filepath.Join(dir, "whole.journal")
	runOK(t, "count", "11", "--checkpoint", whole)
	out, errs := runOK(t, "merge", files[0], files[1], files[2], whole)
	assert.Equal(t, "2680\n", out)
	assert.Contains(t, errs, "identical counts")
}

func TestShardBalance(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 14, Method: partition.Sym})
	require.NoError(t, err)
	for _, m := range []int{2, 8, 64} {
		shard, err := p.Split(m)
		require.NoError(t, err)
		again, _ := p.Split(m)
		assert.Equal(t, shard, again, "deterministic")
		load := make([]uint64, m)
		var max, total uint64
		for i, s := range shard {
			load[s] += p.Tasks[i].Cost
			total += p.Tasks[i].Cost
			max = std(max, p.Tasks[i].Cost)
			if i > 0 {
				assert.GreaterOrEqual(t, s, shard[i-1], "m=%d: shards are contiguous ranges of the plan", m)
			}
		}
		for s, l := range load {
			// Each shard holds the tasks whose midpoints fall in its share.
			share := float64(total) / float64(m)
			assert.InDelta(t, share, float64(l), float64(max), "m=%d: shard %d within one task's cost of its share", m, s)
		}
	}
}

func std(a, b uint64) uint64 { return max(a, b) }

// TestMergeRejects covers every way merge refuses its input.
func TestMergeRejects(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, 10, 3, "sym")
	other := shardFiles(t, dir, 9, 3, "sym")
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		return b
	}
	// A file whose task 1 has another count, correctly checksummed.
	f := readResult(t, files[1])
	f.Records[0].Total++
	conflicting := writeResult(t, filepath.Join(dir, "conflict.result"), f.Header, f.Records)
	good1 := read(files[1])
	corrupt := append([]byte(nil), good1...)
	corrupt[len(corrupt)/2] ^= 1
	for _, tc := range []struct {
		name  string
		files []string
		msg   string
	}{
		{"missing shard", files[:2], "missing or incomplete shards of 3: 2"},
		{"conflicting duplicate", []string{files[0], files[1], files[2], conflicting}, "has different counts in"},
		{"corrupted", []string{files[0], write("corrupt.result", corrupt), files[2]}, "checksum mismatch"},
		{"truncated", []string{files[0], write("trunc.result", good1[:len(good1)-5]), files[2]}, "incomplete"},
		{"truncated at a line end", []string{files[0], write("trunc2.result", good1[:bytes.LastIndexByte(good1[:len(good1)-1], '\n')+1]), files[2]}, "no end line"},
		{"mismatched", []string{files[0], files[1], other[2]}, "not pieces of one count"},
		{"not a result file", []string{write("junk.txt", []byte("hello\n"))}, "line 1"},
		{"no such file", []string{filepath.Join(dir, "nope")}, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, code := runErr(t, append([]string{"merge"}, tc.files...)...)
			want := cli.ExitFailure
			if tc.name == "no such file" {
				want = cli.ExitUsage // a file named that is not there is bad input
			}
			assert.Equal(t, want, code, errs)
			assert.Empty(t, out, "no count printed")
			assert.Contains(t, errs, tc.msg)
		})
	}
	_, errs, code := runErr(t, "merge")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "merge takes one or more")
}

// TestShardFromEnvironment: a scheduler's variables choose the shard
// (cmd/nqueens/internal/cli's tests take the variables apart); bad shards are refused.
func TestShardFromEnvironment(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "5")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "8")
	t.Setenv("SLURM_ARRAY_TASK_MIN", "1")
	_, errs := runOK(t, "count", "8", "--out", filepath.Join(t.TempDir(), "s4.result"))
	assert.Contains(t, errs, "nqueens: shard 4/8 from SLURM_ARRAY_TASK_ID")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	_, _, code := runErr(t, "count", "8", "--shard", "3/3", "--out", filepath.Join(t.TempDir(), "x"))
	assert.Equal(t, cli.ExitUsage, code)
	_, errs, code = runErr(t, "count", "8", "--shard", "0/3", "--out", "/nonexistent/dir/x.result")
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "--out: cannot create a file beside /nonexistent/dir/x.result: no such file or directory")
	_, errs, code = runErr(t, "count", "8", "--shard", "0/3")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "keep its counts, to merge them with the other shards', with --out or --checkpoint")
}

// TestCheckpointResume interrupts nothing but checks the journal's rules:
// a finished journal resumes to the same answer without counting, a
// journal for another count is refused, a torn last record is ignored.
func TestCheckpointResume(t *testing.T) {
	dir := t.TempDir()
	j := filepath.Join(dir, "n11.journal")
	out, _ := runOK(t, "count", "11", "--checkpoint", j)
	assert.Equal(t, "2680\n", out)
	out, errs := runOK(t, "count", "11", "--checkpoint", j, "--json")
	assert.Contains(t, errs, "already counted")
	assert.Contains(t, out, `"total":"2680"`)
	_, errs, code := runErr(t, "count", "11", "--checkpoint", j, "-m", "mirror")
	assert.Equal(t, cli.ExitUsage, code)
	assert.Contains(t, errs, "belongs to another count")
	// Tear the last record: it is counted again, the answer is unchanged.
	b, err := os.ReadFile(j)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(j, b[:len(b)-7], 0o644))
	out, errs = runOK(t, "count", "11", "--checkpoint", j)
	assert.Equal(t, "2680\n", out)
	assert.Contains(t, errs, "incomplete")
	// Damage a record in the middle: an error naming the line.
	b, err = os.ReadFile(j)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(b), "\n")
	lines[3] = strings.Replace(lines[3], "task ", "task 9", 1)
	require.NoError(t, os.WriteFile(j, []byte(strings.Join(lines, "")), 0o644))
	_, errs, code = runErr(t, "count", "11", "--checkpoint", j)
	assert.Equal(t, cli.ExitFailure, code)
	assert.Contains(t, errs, "line 4: checksum")
	// A journal merges like a shard file.
	j2 := filepath.Join(dir, "n12.journal")
	runOK(t, "count", "12", "--checkpoint", j2)
	out, _ = runOK(t, "merge", j2)
	assert.Equal(t, "14200\n", out)
}

// TestKill9Resume kills a checkpointed count with SIGKILL in the middle (a
// real subprocess), then resumes it: the right total, for two methods.
func TestKill9Resume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs counts in subprocesses")
	}
	bin := nqueensBinary(t)
	// join counts n = 16 in 0.2 s: it gets n = 18 to be killed midway.
	for _, tc := range []struct {
		method string
		n      int
	}{{"sym", 16}, {"mirror", 16}, {"join", 18}} {
		method, n := tc.method, fmt.Sprint(tc.n)
		t.Run(method, func(t *testing.T) {
			j := filepath.Join(t.TempDir(), "n"+n+".journal")
			cmd := exec.Command(bin, "count", n, "-m", method, "--checkpoint", j, "-j", "2")
			require.NoError(t, cmd.Start())
			// Wait until the journal holds some records on disk (it is
			// fsynced every 2 s), then kill without warning.
			for {
				if b, err := os.ReadFile(j); err == nil && bytes.Count(b, []byte("\ntask ")) >= 10 {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			_ = cmd.Wait()
			var out, errb bytes.Buffer
			again := exec.Command(bin, "count", n, "-m", method, "--checkpoint", j, "--json")
			again.Stdout, again.Stderr = &out, &errb
			require.NoError(t, again.Run(), errb.String())
			var rep report.Count
			require.NoError(t, json.Unmarshal(out.Bytes(), &rep))
			assert.Equal(t, fmt.Sprint(known.Total[tc.n]), rep.Total)
			assert.Positive(t, rep.Resumed, "some tasks came from the journal")
			assert.Less(t, rep.Resumed, rep.Tasks, "and some were counted after the kill")
			assert.Contains(t, errb.String(), "resuming from")
		})
	}
}

// TestMergeJob runs scripts/slurm/merge.sbatch as Slurm would (bash, its
// environment) on a campaign's folder: with a forged task line and an
// audit it exits non-zero and writes neither the .total nor the .json
// (it had published the forged total, exit 0); on honest files it
// writes both, the total the JSON's.
func TestMergeJob(t *testing.T) {
	bin := nqueensBinary(t)
	out := t.TempDir()
	dir := filepath.Join(out, "n12-join")
	runOK(t, "count", "12", "--shard", "0-2/3", "--dir", dir, "-q")
	shard := filepath.Join(dir, "000", "shard1.result")
	honest, err := os.ReadFile(shard)
	require.NoError(t, err)
	f := readResult(t, shard)
	recs := append([]resultfile.Record(nil), f.Records...)
	recs[len(recs)/2].Total += 8 // keeps Burnside's division: only the audit tells
	writeResult(t, shard, f.Header, recs)

	job := func(audit string) (string, error) {
		cmd := exec.Command("bash", filepath.Join("..", "..", "scripts", "slurm", "merge.sbatch"))
		cmd.Env = append(os.Environ(), "NQUEENS="+bin, "N=12", "METHOD=join", "OUTDIR="+out, "AUDIT="+audit)
		b, err := cmd.CombinedOutput()
		return string(b), err
	}
	left := func() []string {
		names, err := filepath.Glob(filepath.Join(out, "n12-join.*"))
		require.NoError(t, err)
		return names
	}
	logs, err := job("1")
	require.Error(t, err, "a failed audit must fail the job: %s", logs)
	assert.Contains(t, logs, "recounts to")
	assert.Empty(t, left(), "a failed audit writes no total and no JSON")
	// Without an audit the forged line is well formed: merge passes it.
	// The job is only as good as its audit; with one, honest files pass.
	require.NoError(t, os.WriteFile(shard, honest, 0o644))
	logs, err = job("1")
	require.NoError(t, err, logs)
	total, err := os.ReadFile(filepath.Join(out, "n12-join.total"))
	require.NoError(t, err)
	assert.Equal(t, "14200\n", string(total))
	var rep report.Count
	b, err := os.ReadFile(filepath.Join(out, "n12-join.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &rep))
	assert.Equal(t, "14200", rep.Total)
	assert.Len(t, left(), 2, "the two files and no temporary one")
	// A merge that fails (a shard missing) leaves the earlier files as
	// they were and adds none.
	require.NoError(t, os.Remove(shard))
	logs, err = job("")
	require.Error(t, err, logs)
	assert.Len(t, left(), 2)
}
