package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
)

// TestErrorsUnprefixed runs commands that fail in each layer (the flags,
// the library's options, the planner, the engine's memory model, the
// files) and checks that every message is one line that starts with
// "nqueens: " once and carries no package's prefix: the library's errors
// come without one, and the command words its options with its flags.
func TestErrorsUnprefixed(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string // a regular expression the message matches
	}{
		{[]string{"count", "8", "-j", "0"}, `^nqueens: -j 0 is out of range \(accepted: 1\.\.4096\)$`},
		{[]string{"count", "8", "--grace", "-1s"}, `^nqueens: --grace -1s is negative`},
		{[]string{"count", "8", "--method", "fast"}, `^nqueens: --method "fast" is not a method`},
		{[]string{"count", "8", "--piece", "king", "--method", "join"}, `^nqueens: --piece king is counted with --method mirror only`},
		{[]string{"count", "8", "--torus", "--piece", "rook"}, `^nqueens: --torus works with queens only`},
		{[]string{"count", "8", "--place", "0:1", "--method", "sym"}, `^nqueens: --place works with --method mirror only \(its default\), not --method sym$`},
		{[]string{"count", "8", "--place", "0:1", "--verify"}, `^nqueens: --verify counts the whole board twice: it does not work with --place$`},
		{[]string{"count", "8", "--shard", "0/2", "--verify", "--out", dir + "/x"}, `^nqueens: --verify counts the whole board twice: it does not work with --out$`},
		{[]string{"count", "8", "--shard", "0/2"}, `^nqueens: --shard 0/2 counts a part of the board: keep its counts, to merge them with the other shards', with --out or --checkpoint$`},
		{[]string{"count", "8", "--place", "b1,b2"}, `^nqueens: --place: queens b1 and b2 share column 1$`},
		{[]string{"count", "40", "--method", "join"}, `^nqueens: board size out of range: 40 is too large for the join method`},
		{[]string{"count", "21", "--memory", "1MB"}, `^nqueens: --memory .* is too small for n = 21`},
		{[]string{"plan", "10", "--shards", "0"}, `^nqueens: --shards 0 is not a shard`},
		{[]string{"table", "4", "6", "--piece", "bishop"}, `^nqueens: --piece "bishop" is not a piece`},
		{[]string{"list", "8", "--method", "sym"}, `^nqueens: unknown flag: --method`},
		{[]string{"merge", dir}, `^nqueens: .* is a directory with no shard files or journals in it`},
		{[]string{"count", "8", "--out", dir}, `^nqueens: --out .*exists and is not a regular file`},
	}
	prefix := regexp.MustCompile(`\b(nqueens|engine|partition|resultfile|report|known|msg): .*\b(nqueens|engine|partition|resultfile|report|known|msg): `)
	for _, tc := range cases {
		_, stderr, code := runErr(t, tc.args...)
		line := strings.TrimSuffix(stderr, "\n")
		assert.NotEqual(t, 0, code, "%v", tc.args)
		assert.NotContains(t, line, "\n", "%v: one line", tc.args)
		assert.Regexp(t, tc.want, line, "%v", tc.args)
		assert.NotRegexp(t, prefix, line, "%v: a second prefix", tc.args)
		assert.NotRegexp(t, `With[A-Z]`, line, "%v: options named as in Go", tc.args)
	}
}

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

// TestLongMessages: a 5 MB token gets a short line on stderr.
func TestLongMessages(t *testing.T) {
	_, errs, code := runErr(t, "verify", "1 3 "+strings.Repeat("x", 5<<20))
	assert.Equal(t, cli.ExitUsage, code)
	assert.Less(t, len(errs), 300, "stderr: %.300s", errs)
}
