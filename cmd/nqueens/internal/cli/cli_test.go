package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// TestExitCode: each kind of error gets its code and one line on stderr.
func TestExitCode(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&SignalError{Sig: syscall.SIGTERM})
	_, optErr := nqueens.Count(context.Background(), 8, nqueens.WithWorkers(0))
	require.Error(t, optErr)
	for _, tc := range []struct {
		err  error
		code int
		line string
	}{
		{nil, ExitOK, ""},
		{errors.New("disk full"), ExitFailure, "nqueens: disk full\n"},
		{Usagef("bad %s", "thing"), ExitUsage, "nqueens: bad thing\n"},
		{Usage(errors.New("unknown flag: --x")), ExitUsage, "nqueens: unknown flag: --x\n"},
		{optErr, ExitUsage, "nqueens: -j 0 is out of range (accepted: 1..4096)\n"},
		{Rename(optErr, map[string]string{"WithWorkers": "--audit-workers"}), ExitUsage, "nqueens: --audit-workers is out of range (accepted: 1..4096)\n"},
		{Interrupted(ctx, "stopped at n = 9"), ExitTerminated, "nqueens: interrupted by SIGTERM: stopped at n = 9\n"},
		// A value's control characters and invalid bytes are written as
		// escapes: one line, nothing the terminal would act on.
		{Usagef("--device %s is not a device", "opencl:0\x1b[2J\nX\xff"), ExitUsage, "nqueens: --device opencl:0\\x1b[2J\\nX\\xff is not a device\n"},
		{Usagef("board size %q", "1\a"), ExitUsage, "nqueens: board size \"1\\a\"\n"},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, tc.code, ExitCode(tc.err, &stderr), "%v", tc.err)
		assert.Equal(t, tc.line, stderr.String())
	}
	plain, cancelPlain := context.WithCancel(context.Background())
	cancelPlain()
	assert.EqualError(t, Interrupted(plain, "search stopped"), "search stopped: context canceled")
	assert.NoError(t, Usage(nil))
}

// TestStopLine: a stopped count's line says how to resume in the
// command's words, or, with no journal, what would have kept the work.
func TestStopLine(t *testing.T) {
	sig := &SignalError{Sig: syscall.SIGINT}
	for _, tc := range []struct {
		err  error
		line string
	}{
		{StopHint(&nqueens.StoppedError{Done: 5, Tasks: 9, Cause: sig}, "--checkpoint FILE keeps them"),
			"nqueens: interrupted by SIGINT: stopped after 5 of 9 tasks (--checkpoint FILE keeps them); no count printed\n"},
		{StopHint(&nqueens.StoppedError{Done: 5, Tasks: 9, Journal: "j", Cause: sig}, "--checkpoint FILE keeps them"),
			"nqueens: interrupted by SIGINT: stopped after 5 of 9 tasks; 5 tasks are saved in j: run the same command again to resume; no count printed\n"},
		{&nqueens.StoppedError{Done: 5, Tasks: 9, Cause: sig}, "nqueens: interrupted by SIGINT: stopped after 5 of 9 tasks; no count printed\n"},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, ExitInterrupted, ExitCode(tc.err, &stderr))
		assert.Equal(t, tc.line, stderr.String())
	}
	assert.Contains(t, (&nqueens.StoppedError{Done: 5, Tasks: 9, Journal: "j"}).Error(), "saved in j: count again with the same journal to resume",
		"the library's own words: it has no command to run again")
}

// TestFlagError rewords pflag's messages.
func TestFlagError(t *testing.T) {
	cmd := &cobra.Command{Use: "count"}
	cmd.Flags().Duration("grace", time.Second, "")
	cmd.Flags().Float64("audit", 0, "")
	cmd.Flags().IntP("workers", "j", 0, "")
	solve := &cobra.Command{Use: "solve"}
	for _, tc := range []struct {
		cmd  *cobra.Command
		args []string
		want string
	}{
		{cmd, []string{"-3"}, "board size -3 out of range (accepted: 0..64)"},
		{solve, []string{"-3"}, fmt.Sprintf("board size -3 out of range (accepted: 0..%d)", 10_000_000)},
		{cmd, []string{"-json"}, `invalid argument "son" for "-j, --workers" flag: strconv.ParseInt: parsing "son": invalid syntax (did you mean --json?)`},
		{cmd, []string{"--grace", "soon"}, `invalid --grace "soon" (accepted: a duration such as 30s, 2m or 1h30m)`},
		{cmd, []string{"--audit", "x"}, `invalid --audit "x" (accepted: a number such as 0.01)`},
		{cmd, []string{"-j", "two"}, `invalid --workers "two" (accepted: an integer)`},
		{cmd, []string{"--fast"}, "unknown flag: --fast (see --help)"},
		{cmd, []string{"-x"}, "unknown shorthand flag: 'x' in -x (see --help)"},
	} {
		perr := tc.cmd.Flags().Parse(tc.args)
		require.Error(t, perr, "%v", tc.args)
		err := FlagError(tc.cmd, perr)
		var u *UsageError
		assert.True(t, errors.As(err, &u), "%v", tc.args)
		assert.EqualError(t, err, tc.want)
	}
}

// TestWord words the library's file and memory errors by flag.
func TestWord(t *testing.T) {
	locked := Word(&nqueens.FileError{Role: "journal", Path: "j", Err: fmt.Errorf("j is locked: %w", nqueens.ErrLocked)}, true)
	assert.EqualError(t, locked, "--checkpoint: j is locked: "+nqueens.ErrLocked.Error()+" (wait for it to finish, or use another file)")
	other := Word(&nqueens.FileError{Role: "shard file", Path: "o", Err: errors.New("no space left on device")}, true)
	assert.EqualError(t, other, "--out: no space left on device")
	// Ten million tasks in 1 GiB: mostly tasks, so shards would fit.
	refusal := func(method nqueens.Method, workers, shards int) *nqueens.MemoryError {
		pm := partition.Method(method)
		me := &nqueens.MemoryError{N: 21, Method: method, Workers: workers, Tasks: 10_000_000, Shards: shards, Limit: 1 << 30, Need: engine.MemoryNeed(21, pm, 10_000_000, workers)}
		require.Error(t, engine.FitMemory(21, pm, workers, 10_000_000, shards, me.Limit, me.Need), "the engine refuses it")
		require.True(t, me.MostlyTasks())
		return me
	}
	assert.EqualError(t, Word(refusal(nqueens.Join, 2, 1), true), "--memory 1.0 GiB is too small for n = 21 by join (the whole board: 10,000,000 tasks) with 2 workers: it needs at least 2.1 GiB (raise --memory, count it in 16 or more shards (--shard I/M, then nqueens merge), use fewer workers with -j, or --method sym)")
	me := refusal(nqueens.Sym, 0, 8)
	assert.EqualError(t, Word(me, false), "--memory 1.0 GiB is too small for n = 21 by sym (a shard of 8: 10,000,000 tasks) with devices alone: it needs at least 2.1 GiB (raise --memory, or end the table before n = 21)")
	var u *UsageError
	assert.True(t, errors.As(Word(me, false), &u), "a memory refusal is a usage error")
	plain := errors.New("plain")
	assert.Same(t, plain, Word(plain, true))
}

// TestShard: the flag wins over the scheduler's variables, which choose
// when it is absent; the flag may name a range.
func TestShard(t *testing.T) {
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1"}
	getenv := func(k string) string { return env[k] }
	a, b, m, from, err := Shard("", 0, getenv)
	require.NoError(t, err)
	assert.Equal(t, []any{4, 4, 8, "SLURM_ARRAY_TASK_ID"}, []any{a, b, m, from})
	a, b, m, from, err = Shard("2/3", 0, getenv)
	require.NoError(t, err)
	assert.Equal(t, []any{2, 2, 3, ""}, []any{a, b, m, from}, "the flag wins")
	a, b, m, from, err = Shard("100-199/1000", 0, getenv)
	require.NoError(t, err)
	assert.Equal(t, []any{100, 199, 1000, ""}, []any{a, b, m, from}, "a range")
	for _, bad := range []string{"3/3", "5-4/8", "0-8/8", "1-/8"} {
		_, _, _, _, err = Shard(bad, 0, getenv)
		assert.EqualError(t, err, `bad --shard "`+bad+`" (accepted: I/M with 0 ≤ I < M, e.g. 0/8, or a range A-B/M with A ≤ B, e.g. 0-99/1000)`)
	}
	a, b, m, from, err = Shard("", 8, getenv)
	require.NoError(t, err, "--shards agreeing with the array")
	assert.Equal(t, []any{4, 4, 8, "SLURM_ARRAY_TASK_ID"}, []any{a, b, m, from})
	_, _, _, _, err = Shard("", 4, getenv)
	assert.EqualError(t, err, "--shards 4 and SLURM_ARRAY_TASK_COUNT=8 disagree (the array's tasks are the shards): leave out --shards; or use --shard I/M")
	env["SLURM_ARRAY_TASK_ID"] = "9"
	_, _, _, _, err = Shard("", 0, getenv)
	assert.ErrorContains(t, err, "do not name a shard")
	assert.ErrorContains(t, err, "; or use --shard I/M")
	env = map[string]string{"JOB_COMPLETION_INDEX": "6"}
	a, b, m, from, err = Shard("", 7, getenv)
	require.NoError(t, err)
	assert.Equal(t, []any{6, 6, 7, "JOB_COMPLETION_INDEX"}, []any{a, b, m, from})
	_, _, _, _, err = Shard("", 6, getenv)
	assert.ErrorContains(t, err, "needs JOB_COMPLETION_INDEX in 0..5")
	a, b, m, from, err = Shard("", 0, func(string) string { return "" })
	require.NoError(t, err)
	assert.Equal(t, []any{0, 0, 1, ""}, []any{a, b, m, from})
}

// TestBoard parses sizes and placements, naming squares as typed.
func TestBoard(t *testing.T) {
	var stderr bytes.Buffer
	n, placed, err := Board("8", "a1,b2", true, &stderr)
	require.NoError(t, err)
	assert.Equal(t, 8, n)
	assert.Len(t, placed, 2)
	assert.Equal(t, "nqueens: note: placed queens a1 and b2 share a diagonal, so no solution contains both\n", stderr.String())
	stderr.Reset()
	_, _, err = Board("8", "a1,b2", false, &stderr)
	require.NoError(t, err)
	assert.Empty(t, stderr.String(), "other pieces: no note")
	_, _, err = Board("8", "z9", true, &stderr)
	assert.ErrorContains(t, err, "z9")
	_, _, err = Board("x", "", true, &stderr)
	assert.EqualError(t, err, `board size "x" is not an integer (accepted: 0..64)`)
	_, _, err = Board("65", "", true, &stderr)
	assert.EqualError(t, err, "board size 65 out of range (accepted: 0..64)")
	n, placed, err = Board("0", "", true, &stderr)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Nil(t, placed)
}

// TestMemoryLimit parses sizes.
func TestMemoryLimit(t *testing.T) {
	for in, want := range map[string]int64{"": 0, "8GiB": 8 << 30, "500MB": 500e6, "1073741824": 1 << 30} {
		got, err := MemoryLimit(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"0", "lots", "-5MB", "9999999999999 EiB"} {
		_, err := MemoryLimit(in)
		assert.ErrorContains(t, err, "invalid --memory", in)
	}
}

// TestSuggest: an unknown flag or command is met with the nearest one, or with nothing when none is near.
func TestSuggest(t *testing.T) {
	cmd := &cobra.Command{Use: "count"}
	cmd.Flags().IntP("workers", "j", 0, "")
	cmd.Flags().Bool("json", false, "")
	cmd.Flags().String("checkpoint", "", "")
	cmd.Flags().String("method", "", "")
	for in, want := range map[string]string{
		"--threads": "--workers", "--jobs": "--workers", "--wrokers": "--workers", "--worker": "--workers",
		"--jsn": "--json", "--checkpiont": "--checkpoint", "--resume": "--checkpoint", "--metod": "--method",
		"--frobnicate": "", "--x": "", "--threads=4": "--workers", "--treads": "--workers",
	} {
		if got := Suggest(cmd, in); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
	root := &cobra.Command{Use: "nqueens"}
	for _, n := range []string{"count", "plan", "merge", "status", "table", "solve", "list", "verify"} {
		root.AddCommand(&cobra.Command{Use: n})
	}
	for in, want := range map[string]string{"cuont": "count", "stauts": "status", "tabel": "table", "frobnicate": "", "pla": "plan"} {
		if got := SuggestCommand(root, in); got != want {
			t.Errorf("SuggestCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestMemoryWords: a memory refusal names the flags that would help.
func TestMemoryWords(t *testing.T) {
	for _, tc := range []struct {
		me   *nqueens.MemoryError
		line string
	}{
		// Figures that round alike are told apart by their bytes; a
		// device's host goroutines are named with their knobs, not -j.
		{&nqueens.MemoryError{N: 19, Method: nqueens.Join, Workers: 2, Tasks: 100, Shards: 16, Limit: 166 << 20, Need: 166<<20 + 4096},
			"nqueens: --memory 166 MiB (174063616 bytes) is too small for n = 19 by join (a shard of 16: 100 tasks) with 2 workers: it needs at least 166 MiB (174067712 bytes) (raise --memory, use fewer workers with -j, or --method sym)\n"},
		{&nqueens.MemoryError{N: 20, Method: nqueens.Join, Workers: 4096, Hosts: 4096, Tasks: 100, Shards: 16, Limit: 12 << 30, Need: 272 << 30},
			"nqueens: --memory 12 GiB is too small for n = 20 by join (a shard of 16: 100 tasks) with 4096 host goroutines feeding devices: it needs at least 272 GiB (raise --memory, fewer host goroutines or a smaller batch with --device-tuning hosts=, batch=, or --method sym)\n"},
	} {
		var stderr bytes.Buffer
		assert.Equal(t, ExitUsage, ExitCode(Word(tc.me, true), &stderr))
		assert.Equal(t, tc.line, stderr.String())
	}
}

// TestOptionFlags checks that every option the library's messages name
// (a "WithX" literal in its source) has its flag, but WithStopNow, which
// no flag sets (the command's signals do).
func TestOptionFlags(t *testing.T) {
	assert.Equal(t, "WithShard", OptionName(nqueens.WithShard))
	files, err := filepath.Glob("../../../../*.go")
	require.NoError(t, err)
	named := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range regexp.MustCompile(`"(With[A-Za-z]+)"`).FindAllSubmatch(src, -1) {
			named[string(m[1])] = true
		}
	}
	require.Contains(t, named, "WithDevice", "the library's source was read")
	delete(named, "WithStopNow")
	for name := range named {
		assert.Contains(t, optionFlags, name, "the library names %s in its messages", name)
	}
}
