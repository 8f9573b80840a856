package nqueens

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/partition"
)

// shardFiles reads every shard file of m shards in dir for Merge.
func shardFiles(t *testing.T, dir string, m int) []File {
	var files []File
	for i := range m {
		result, _, _ := ShardPaths(dir, i, m)
		b, err := os.ReadFile(result)
		require.NoError(t, err)
		files = append(files, File{Name: result, R: bytes.NewReader(b)})
	}
	return files
}

// countedShards counts shards first..last of m of the n×n board into a
// new directory and returns it.
func countedShards(t *testing.T, n, first, last, m int) string {
	dir := t.TempDir()
	for _, err := range CountShards(context.Background(), n, dir, first, last, m) {
		require.NoError(t, err)
	}
	return dir
}

// rewrite writes a shard file of header h holding recs at path.
func rewrite(t *testing.T, path string, h resultfile.Header, recs []resultfile.Record) {
	b := resultfile.AppendHeader(nil, h)
	for _, r := range recs {
		b = resultfile.AppendRecord(b, h, r)
	}
	require.NoError(t, os.WriteFile(path, resultfile.AppendEnd(b, h, recs), 0o644))
}

// TestCountShards counts a board as ranges of shards into one directory,
// merges them, and checks what a second run over the same range does:
// finished shards are read back, not counted; a damaged shard file is
// counted again; another count's file is refused; the journals are gone.
func TestCountShards(t *testing.T) {
	ctx := context.Background()
	const n, m = 12, 8
	dir := t.TempDir()
	var counted []int
	for _, r := range [][2]int{{0, 2}, {3, 3}, {4, 7}} {
		for c, err := range CountShards(ctx, n, dir, r[0], r[1], m, WithWorkers(2)) {
			require.NoError(t, err)
			assert.Equal(t, m, c.Shards)
			assert.Zero(t, c.Resumed)
			assert.False(t, c.ReadBack)
			counted = append(counted, c.Shard)
		}
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7}, counted)
	for i := range m {
		result, journal, _ := ShardPaths(dir, i, m)
		assert.FileExists(t, result)
		assert.NoFileExists(t, journal, "the journal goes once the shard file is written")
	}
	total, err := Merge(ctx, shardFiles(t, dir, m)...)
	require.NoError(t, err)
	assert.Equal(t, known.Total[n], total.Total.Big().Uint64())

	// Again: read back, the same counts; a damaged file moved aside and
	// its shard counted again.
	r5, _, _ := ShardPaths(dir, 5, m)
	before, err := os.ReadFile(r5)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(r5, before[:len(before)/2], 0o644))
	var again uint64
	for c, err := range CountShards(ctx, n, dir, 0, m-1, m) {
		require.NoError(t, err)
		if c.Shard == 5 {
			assert.Zero(t, c.Resumed, "shard 5 was damaged: counted again")
			assert.False(t, c.ReadBack)
			require.Len(t, c.Notes, 1)
			assert.Contains(t, c.Notes[0], "could not be read back")
		} else {
			assert.Equal(t, c.Tasks, c.Resumed, "shard %d was read back", c.Shard)
			assert.True(t, c.ReadBack, "shard %d", c.Shard)
			assert.Empty(t, c.Notes)
		}
		again += c.Total.Big().Uint64()
	}
	assert.Equal(t, known.Total[n], again)
	after, err := os.ReadFile(r5)
	require.NoError(t, err)
	assert.Equal(t, before, after, "shard 5 counted again, byte for byte")
	aside, err := os.ReadFile(r5 + ".damaged")
	require.NoError(t, err, "the damaged file is kept beside it")
	assert.Equal(t, before[:len(before)/2], aside)

	// Another count's shard file where shard 1 goes is refused, kept.
	other := t.TempDir()
	for _, err := range CountShards(ctx, n+1, other, 1, 1, m) {
		require.NoError(t, err)
	}
	o1, _, _ := ShardPaths(other, 1, m)
	r1, _, _ := ShardPaths(dir, 1, m)
	foreign, err := os.ReadFile(o1)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(r1, foreign, 0o644))
	var shards []int
	for c, err := range CountShards(ctx, n, dir, 0, 2, m) {
		if err != nil {
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), "another count")
			break
		}
		shards = append(shards, c.Shard)
	}
	assert.Equal(t, []int{0}, shards, "stops at shard 1")
	kept, err := os.ReadFile(r1)
	require.NoError(t, err)
	assert.Equal(t, foreign, kept)
}

// TestCountShardsStopped: a cancelled context stops the shard being
// counted with its journal saved, starts no other, and the same range
// run again resumes it.
func TestCountShardsStopped(t *testing.T) {
	const n, m = 13, 4
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	var shards []int
	var stopped *StoppedError
	for c, err := range CountShards(ctx, n, dir, 0, 3, m, WithWorkers(1), WithGrace(0), WithProgress(func(p Progress) {
		if p.TasksDone == 3 && p.TasksDone < p.Tasks {
			cancel()
		}
	})) {
		if err != nil {
			require.ErrorAs(t, err, &stopped)
			break
		}
		shards = append(shards, c.Shard)
	}
	require.NotNil(t, stopped)
	assert.Empty(t, shards)
	assert.Equal(t, 3, stopped.Done)
	_, journal, _ := ShardPaths(dir, 0, m)
	assert.FileExists(t, journal)
	var total uint64
	for c, err := range CountShards(context.Background(), n, dir, 0, 3, m) {
		require.NoError(t, err)
		if c.Shard == 0 {
			assert.Equal(t, 3, c.Resumed)
		}
		total += c.Total.Big().Uint64()
	}
	assert.Equal(t, known.Total[n], total)
	assert.NoFileExists(t, journal)
}

// TestCountShardsRefuses: bad ranges and options are the caller's errors.
func TestCountShardsRefuses(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, r := range [][3]int{{2, 1, 4}, {-1, 1, 4}, {0, 4, 4}, {0, 0, 0}} {
		for _, err := range CountShards(ctx, 10, dir, r[0], r[1], r[2]) {
			assert.ErrorIs(t, err, ErrInvalid, "%v", r)
			assert.ErrorIs(t, err, partition.ErrShard, "%v", r)
		}
	}
	for _, err := range CountShards(ctx, 10, "", 0, 0, 1) {
		assert.ErrorIs(t, err, ErrInvalid)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written")
	a, b, _ := ShardPaths("d", 42, 100000)
	assert.Equal(t, filepath.Join("d", "000", "shard00042.result"), a)
	assert.Equal(t, filepath.Join("d", "000", "shard00042.journal"), b)
	a, _, _ = ShardPaths("d", 99999, 100000)
	assert.Equal(t, filepath.Join("d", "099", "shard99999.result"), a)
	a, _, _ = ShardPaths("d", 1234567, 10000000)
	assert.Equal(t, filepath.Join("d", "1234", "shard1234567.result"), a)
	a, _, _ = ShardPaths("d", 0, 1)
	assert.Equal(t, filepath.Join("d", "000", "shard0.result"), a)
	for _, bad := range [][2]int{{-1, 0}, {0, 0}, {-1, 4}, {4, 4}} {
		a, b, err := ShardPaths("d", bad[0], bad[1])
		assert.ErrorIs(t, err, ErrInvalid, "shard %d/%d", bad[0], bad[1])
		assert.Empty(t, a+b, "no path for shard %d/%d", bad[0], bad[1])
	}
}

// TestAuditSplit: the audit draws the same tasks from a count's files
// whether they are one split's shard files (read a shard at a time) or a
// whole count's journal (read against the whole plan), and a forged line
// in a shard file fails it; merge and status read the split a shard at a
// time with the same totals.
func TestAuditSplit(t *testing.T) {
	ctx := context.Background()
	const n, m = 13, 6
	dir := countedShards(t, n, 0, m-1, m)
	journal := filepath.Join(t.TempDir(), "whole.journal")
	_, err := Count(ctx, n, WithJournalFile(journal))
	require.NoError(t, err)
	whole := func() []File { b, _ := os.ReadFile(journal); return []File{{Name: journal, R: bytes.NewReader(b)}} }
	for _, seed := range []uint64{1, 2, 3} {
		split, err := Audit(ctx, 0.2, seed, shardFiles(t, dir, m))
		require.NoError(t, err)
		one, err := Audit(ctx, 0.2, seed, whole())
		require.NoError(t, err)
		assert.Equal(t, one, split, "seed %d: the same draw", seed)
		assert.Positive(t, split)
	}
	c, err := Merge(ctx, shardFiles(t, dir, m)...)
	require.NoError(t, err)
	assert.Equal(t, known.Total[n], c.Total.Big().Uint64())
	rep, err := Status(ctx, shardFiles(t, dir, m)...)
	require.NoError(t, err)
	assert.True(t, rep.Total.Complete())
	assert.Len(t, rep.PerShard, m)

	// A forged line: shard 2's first task, its total one more.
	r2, _, _ := ShardPaths(dir, 2, m)
	b, err := os.ReadFile(r2)
	require.NoError(t, err)
	f, err := resultfile.Read(bytes.NewReader(b))
	require.NoError(t, err)
	f.Records[0].Total++
	rewrite(t, r2, f.Header, f.Records)
	_, err = Audit(ctx, 1, 7, shardFiles(t, dir, m))
	require.ErrorContains(t, err, "audit: task "+f.Records[0].ID+" in "+r2)

	// A shard's line moved to another shard's file is named.
	r3, _, _ := ShardPaths(dir, 3, m)
	b3, err := os.ReadFile(r3)
	require.NoError(t, err)
	f3, err := resultfile.Read(bytes.NewReader(b3))
	require.NoError(t, err)
	rewrite(t, r3, f3.Header, append(f3.Records, f.Records[1]))
	_, err = Merge(ctx, shardFiles(t, dir, m)...)
	require.ErrorContains(t, err, "is not one of shard 3/6's tasks")
}

// TestStatusWhileRunning: status of a campaign that runs passes over a
// journal named in its list that is gone by the time it is read (the
// shard finished and removed it); merge, of a count that must be
// complete, refuses it.
func TestStatusWhileRunning(t *testing.T) {
	ctx := context.Background()
	const n, m = 12, 4
	dir := countedShards(t, n, 0, 2, m)
	var files []File
	for i := range m {
		result, journal, _ := ShardPaths(dir, i, m)
		if i < 3 {
			files = append(files, File{Name: result})
		} else {
			files = append(files, File{Name: journal, Listed: true}) // listed, then removed
		}
	}
	rep, err := Status(ctx, files...)
	require.NoError(t, err)
	assert.Equal(t, []int{3}, rep.Missing)
	assert.Empty(t, rep.PerShard[3].Files)
	_, err = Merge(ctx, files...)
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = Status(ctx, files[3])
	assert.ErrorContains(t, err, "none of the 1 files named is there any more")
	files[3].Listed = false // named by the caller: its absence is an error
	_, err = Status(ctx, files...)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, "shard3.journal")
}

// TestStatusETA: the campaign's rate and ETA from its finished shard
// files' times, when no journal tells one.
func TestStatusETA(t *testing.T) {
	ctx := context.Background()
	const n, m = 12, 4
	dir := countedShards(t, n, 0, 2, m)
	t0 := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	var files []File
	for i := range 3 {
		result, _, _ := ShardPaths(dir, i, m)
		b, err := os.ReadFile(result)
		require.NoError(t, err)
		files = append(files, File{Name: result, R: bytes.NewReader(b), ModTime: t0.Add(time.Duration(i) * 40 * time.Second)})
	}
	rep, err := Status(ctx, files...)
	require.NoError(t, err)
	w := rep.PerShard
	assert.InDelta(t, (w[1].Work+w[2].Work)/80, rep.Total.Rate, 1e-9, "the work after the first file, over 80 s")
	assert.InDelta(t, w[3].Work/rep.Total.Rate, rep.Total.ETA.Seconds(), 1e-6)
	r0, _, _ := ShardPaths(dir, 0, m)
	b0, err := os.ReadFile(r0)
	require.NoError(t, err)
	rep, err = Status(ctx, File{Name: r0, R: bytes.NewReader(b0), ModTime: t0})
	require.NoError(t, err)
	assert.Zero(t, rep.Total.Rate, "one file tells no rate")
	// Written within a minute (a small count's shards, milliseconds
	// apart): too close to tell a rate, "unknown" rather than "0s".
	for i := range files {
		files[i].R.(*bytes.Reader).Seek(0, io.SeekStart)
		files[i].ModTime = t0.Add(time.Duration(i) * 20 * time.Millisecond)
	}
	rep, err = Status(ctx, files...)
	require.NoError(t, err)
	assert.Zero(t, rep.Total.Rate)
	assert.Zero(t, rep.Total.ETA)
}

// TestDirFiles: a campaign's directory lists the files CountShards wrote
// there, through a shard folder linked elsewhere, each once though the
// links make a loop.
func TestDirFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links")
	}
	root := t.TempDir()
	dir, elsewhere := filepath.Join(root, "d"), filepath.Join(root, "elsewhere")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.MkdirAll(elsewhere, 0o755))
	require.NoError(t, os.Symlink(elsewhere, filepath.Join(dir, "000")))
	require.NoError(t, os.Symlink(root, filepath.Join(elsewhere, "back")))
	for _, err := range CountShards(context.Background(), 10, dir, 0, 3, 4) {
		require.NoError(t, err)
	}
	files, err := DirFiles(dir)
	require.NoError(t, err)
	var names []string
	for _, f := range files {
		assert.True(t, f.Listed)
		names = append(names, filepath.Base(f.Name))
	}
	assert.Equal(t, []string{"shard0.result", "shard1.result", "shard2.result", "shard3.result"}, names)
	c, err := Merge(context.Background(), files...)
	require.NoError(t, err)
	assert.Equal(t, "724", c.Total.String())
	empty, err := DirFiles(t.TempDir())
	require.NoError(t, err)
	assert.Empty(t, empty)
}
