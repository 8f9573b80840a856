package nqueens

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/resultfile"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// memJournal is a Journal in memory, so that tests need no files.
type memJournal struct {
	data  []byte
	off   int64
	syncs int
	fail  error // returned by Write once set
}

func (m *memJournal) Read(p []byte) (int, error) {
	if m.off >= int64(len(m.data)) {
		return 0, io.EOF
	}
	n := copy(p, m.data[m.off:])
	m.off += int64(n)
	return n, nil
}

func (m *memJournal) Write(p []byte) (int, error) {
	if m.fail != nil {
		return 0, m.fail
	}
	if end := m.off + int64(len(p)); end > int64(len(m.data)) {
		m.data = append(m.data, make([]byte, end-int64(len(m.data)))...)
	}
	copy(m.data[m.off:], p)
	m.off += int64(len(p))
	return len(p), nil
}

func (m *memJournal) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		m.off = off
	case io.SeekCurrent:
		m.off += off
	case io.SeekEnd:
		m.off = int64(len(m.data)) + off
	}
	return m.off, nil
}

func (m *memJournal) Truncate(size int64) error { m.data = m.data[:size]; return nil }
func (m *memJournal) Sync() error               { m.syncs++; return nil }

func want(t *testing.T, n int, c Counts) {
	t.Helper()
	assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "Count(%d) total", n)
	if u, ok := c.Unique(); ok {
		assert.Equal(t, fmt.Sprint(known.Unique[n]), u.String(), "Count(%d) unique", n)
	}
	if p, ok := c.PointSymmetric(); ok {
		r, _ := c.Rot90Symmetric()
		assert.Equal(t, fmt.Sprint(known.PointSym(n)), p.String(), "Count(%d) point", n)
		assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), r.String(), "Count(%d) rot90", n)
	}
}

// TestCount counts small boards with every method: the published counts,
// and every class count present exactly where the method gives it.
func TestCount(t *testing.T) {
	ctx := context.Background()
	for _, m := range []Method{Auto, Join, Sym, Mirror} {
		for n := 0; n <= 13; n++ {
			c, err := Count(ctx, n, WithMethod(m), WithWorkers(2))
			require.NoError(t, err, "n=%d %s", n, m)
			want(t, n, c)
			_, hasU := c.Unique()
			_, hasP := c.PointSymmetric()
			assert.Equal(t, c.Method != Mirror, hasU, "n=%d %s unique", n, m)
			assert.Equal(t, c.Method != Mirror, hasP, "n=%d %s symmetric", n, m)
			assert.Equal(t, n, c.N)
			assert.False(t, c.Partial())
			if m != Auto {
				assert.Equal(t, m, c.Method)
			}
		}
	}
	c, err := Count(ctx, 12)
	require.NoError(t, err)
	assert.Equal(t, Join, c.Method, "auto is join from n = 12")
	assert.Equal(t, "14200", fmt.Sprint(c))
	assert.Equal(t, "14200", fmt.Sprintf("%d", c))
	assert.Positive(t, c.MemoryLimit)
}

// TestCountAgainstReference counts placed queens and small boards against
// the slow, obviously correct reference.
func TestCountAgainstReference(t *testing.T) {
	for n := 0; n <= 9; n++ {
		var k uint64
		reference.Solutions(n, func([]int) bool { k++; return true })
		c, err := Count(context.Background(), n, WithMethod(Sym))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint(k), c.Total.String(), "n=%d", n)
	}
}

func TestCountInvalid(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n    int
		opts []CountOption
		msg  string
	}{
		{-1, nil, "board size out of range"},
		{65, nil, "board size out of range"},
		{33, []CountOption{WithMethod(Join)}, "too large for the join method"},
		{8, []CountOption{WithMethod("fast")}, "WithMethod(\"fast\") is not a method"},
		{8, []CountOption{WithWorkers(-2)}, "is out of range (accepted: 1..4096)"},
		{8, []CountOption{WithWorkers(1_000_000)}, "is out of range (accepted: 1..4096)"},
		{12, []CountOption{WithShard(0, 1<<40, io.Discard)}, "bad shard: 1099511627776 shards of a plan of 276 tasks"},
		{12, []CountOption{WithShard(0, 1<<62, io.Discard)}, "bad shard: 4611686018427387904 shards"},
		{8, []CountOption{WithMemory(-1)}, "negative"},
		{8, []CountOption{WithShard(3, 3, nil)}, "is not a shard (accepted: I/M with 0 ≤ I < M)"},
		{8, []CountOption{WithShard(0, 0, nil)}, "is not a shard (accepted: I/M with 0 ≤ I < M)"},
		{8, []CountOption{WithPlaced(Square{Row: 0, Col: 0}), WithMethod(Sym)}, "WithPlaced works with WithMethod(mirror) only"},
		{8, []CountOption{WithPlaced(Square{Row: 8, Col: 0})}, "off the 8×8 board"},
		{8, []CountOption{WithGrace(-time.Second)}, "negative"},
		{16, []CountOption{WithMethod(Join), WithMemory(100 << 10), WithWorkers(4)}, "too small for n = 16 (join, 3331 tasks)"},
		// Refused at once, before planning: the whole plan would not fit.
		{29, []CountOption{WithMemory(4 << 30)}, "too small for n = 29 (join, 290850362 tasks)"},
		{31, []CountOption{WithMethod(Join), WithMemory(4 << 30)}, "too small for n = 31 (join, 1202169034 tasks)"},
		{40, []CountOption{WithMethod(Sym), WithMemory(30 << 20)}, "too small for n = 40 (sym, "},
		{12, []CountOption{WithShard(0, 2, nil)}, "WithShard(0/2) counts a part of the board: keep its counts, to merge them with the other shards', with WithShardFile or WithJournalFile"},
	} {
		_, err := Count(ctx, tc.n, tc.opts...)
		require.Error(t, err, "n=%d", tc.n)
		assert.ErrorIs(t, err, ErrInvalid, "n=%d: %v", tc.n, err)
		assert.ErrorContains(t, err, tc.msg)
	}
	_, err := Count(ctx, 16, WithMethod(Join), WithMemory(100<<10), WithWorkers(4))
	var me *MemoryError
	assert.ErrorAs(t, err, &me, "the memory error says what is needed")
}

func uint64Of(x uint64) wide.Uint { return wide.Of(x) }

// UintOf is x as the library's Uint.
func UintOf(x uint64) Uint { return Uint{wide.Of(x)} }

// TestUintText: a count goes through encoding/json as a string of its
// digits and back, exact past 2^64; anything but plain decimal digits of
// at most 320 bits is refused.
func TestUintText(t *testing.T) {
	c, err := Count(context.Background(), 8)
	require.NoError(t, err)
	out, err := json.Marshal(c)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"Total":"92"`)
	big := Uint{wide.FromWords([wide.Words]uint64{3, 1})}
	out, err = json.Marshal(struct{ N Uint }{big})
	require.NoError(t, err)
	assert.Equal(t, `{"N":"18446744073709551619"}`, string(out))
	var back struct{ N Uint }
	require.NoError(t, json.Unmarshal(out, &back))
	assert.Equal(t, big, back.N)
	for _, bad := range []string{"", "-1", "+1", "007", "1e3", "0x10", " 1", strings.Repeat("9", 97)} {
		var u Uint
		assert.Error(t, u.UnmarshalText([]byte(bad)), "%q", bad)
	}
}

// TestBurnside checks the unique count's derivation, past 2^64 too.
func TestBurnside(t *testing.T) {
	u, err := burnside(8, uint64Of(92), uint64Of(4), wide.Uint{})
	require.NoError(t, err)
	assert.Equal(t, "12", u.String())
	u, err = burnside(30, wide.FromWords([wide.Words]uint64{8, 1}), wide.Uint{}, wide.Uint{})
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(uint64(1)<<61+1), u.String())
	_, err = burnside(8, uint64Of(92), uint64Of(3), wide.Uint{})
	assert.ErrorIs(t, err, ErrMismatch)
	u, err = burnside(1, uint64Of(1), uint64Of(1), uint64Of(1))
	require.NoError(t, err)
	assert.Equal(t, "1", u.String(), "n ≤ 1: the one board is its own class")
}

// TestJournal resumes from a journal in memory: a finished journal gives
// the answer without counting, a torn record is counted again, a journal
// of another count is refused, and the duplicate rule is the ledger's.
func TestJournal(t *testing.T) {
	ctx := context.Background()
	var j memJournal
	c, err := Count(ctx, 11, withJournal(&j, "j"))
	require.NoError(t, err)
	want(t, 11, c)
	assert.Zero(t, c.Resumed)
	assert.Positive(t, j.syncs)
	f, err := resultfile.Read(bytes.NewReader(j.data))
	require.NoError(t, err)
	assert.Len(t, f.Records, c.Tasks)
	assert.Positive(t, f.Header.Started, "the journal says when it started")

	c, err = Count(ctx, 11, withJournal(&j, "j"))
	require.NoError(t, err)
	want(t, 11, c)
	assert.Equal(t, c.Tasks, c.Resumed, "everything came from the journal")

	// A torn last record: noted, counted again.
	torn := memJournal{data: slices.Clone(j.data[:len(j.data)-5])}
	c, err = Count(ctx, 11, withJournal(&torn, "torn"))
	require.NoError(t, err)
	want(t, 11, c)
	assert.Equal(t, c.Tasks-1, c.Resumed)
	require.Len(t, c.Notes, 1)
	assert.Equal(t, "the last record of torn was incomplete (a crash while writing) and is ignored; the 1 task the journal lacks is counted, the one it was recording among them", c.Notes[0])

	// A torn last line past every task ("task zz", no newline): nothing
	// is counted again, and the note says so.
	junk := memJournal{data: append(slices.Clone(j.data), "task zz"...)}
	c, err = Count(ctx, 11, withJournal(&junk, "junk"))
	require.NoError(t, err)
	want(t, 11, c)
	assert.Equal(t, c.Tasks, c.Resumed)
	require.Len(t, c.Notes, 1)
	assert.Equal(t, "the last record of junk was incomplete (a crash while writing) and is ignored; every task is in the journal, so none is counted again", c.Notes[0])

	// Another count's journal.
	_, err = Count(ctx, 11, WithMethod(Mirror), withJournal(&memJournal{data: slices.Clone(j.data)}, "j"))
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, "belongs to another count")

	// A task twice: identical is accepted once; different is refused.
	last := f.Records[len(f.Records)-1]
	dup := memJournal{data: resultfile.AppendRecord(slices.Clone(j.data), f.Header, last)}
	c, err = Count(ctx, 11, withJournal(&dup, "dup"))
	require.NoError(t, err)
	want(t, 11, c)
	assert.Contains(t, strings.Join(c.Notes, "\n"), "identical counts")
	last.Total += 2
	bad := memJournal{data: resultfile.AppendRecord(slices.Clone(j.data), f.Header, last)}
	_, err = Count(ctx, 11, withJournal(&bad, "bad"))
	assert.ErrorContains(t, err, "has different counts")
	assert.NotErrorIs(t, err, ErrInvalid, "a damaged journal is a failure")
}

// TestJournalWriteError stops a count whose journal cannot be written.
func TestJournalWriteError(t *testing.T) {
	full := errors.New("no space left on device")
	j := &memJournal{fail: full}
	_, err := Count(context.Background(), 12, WithMethod(Mirror), withJournal(j, "full"))
	assert.ErrorIs(t, err, full)
	assert.ErrorContains(t, err, "journal full")
}

// TestShardsMergeStatus counts a join board in shards, checks what Status
// says while shards are missing and after, and merges them.
func TestShardsMergeStatus(t *testing.T) {
	ctx := context.Background()
	const n, m = 13, 5
	var files []File
	var tasks int
	for i := range m {
		var out bytes.Buffer
		c, err := Count(ctx, n, WithShard(i, m, &out), WithWorkers(2))
		require.NoError(t, err)
		assert.True(t, c.Partial())
		_, ok := c.Unique()
		assert.False(t, ok, "a join shard has no unique count")
		_, ok = c.PointSymmetric()
		assert.True(t, ok, "but its symmetric counts")
		tasks += c.Tasks
		files = append(files, File{Name: fmt.Sprintf("s%d", i), R: bytes.NewReader(out.Bytes())})
	}
	p, err := partition.Make(context.Background(), partition.Job{N: n})
	require.NoError(t, err)
	assert.Equal(t, len(p.Tasks), tasks, "the shards hold every task once")

	reread := func(fs []File) []File {
		var out []File
		for _, f := range fs {
			f.R.(*bytes.Reader).Seek(0, io.SeekStart)
			out = append(out, f)
		}
		return out
	}
	_, err = Merge(ctx, reread(files[:3])...)
	assert.ErrorContains(t, err, "missing or incomplete shards of 5: 3-4")
	st, err := Status(ctx, reread(files[:3])...)
	require.NoError(t, err)
	assert.Equal(t, []int{3, 4}, st.Missing)
	assert.False(t, st.Total.Complete())
	assert.True(t, st.PerShard[0].Complete())
	assert.Less(t, st.Total.Fraction(), 1.0)
	assert.Greater(t, st.Total.Fraction(), 0.3)

	c, err := Merge(ctx, reread(files)...)
	require.NoError(t, err)
	want(t, n, c)
	_, ok := c.Unique()
	assert.True(t, ok, "merged: unique by Burnside's lemma")
	st, err = Status(ctx, reread(files)...)
	require.NoError(t, err)
	assert.True(t, st.Total.Complete())
	assert.Empty(t, st.Missing)
}

// TestStopped cancels a count: a StoppedError that says how far it got,
// and a journal that resumes to the right answer.
func TestStopped(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("stop")
	var j memJournal
	done := 0
	_, err := Count(ctx, 14, WithMethod(Mirror), WithWorkers(1), withJournal(&j, "j"), WithProgress(func(p Progress) {
		if done = p.TasksDone; done == 10 {
			cancel(stop)
		}
	}))
	var se *StoppedError
	require.ErrorAs(t, err, &se)
	assert.ErrorIs(t, err, stop)
	assert.GreaterOrEqual(t, se.Done, 10)
	assert.Less(t, se.Done, se.Tasks)
	assert.Contains(t, se.Error(), "saved in j")
	c, err := Count(context.Background(), 14, WithMethod(Mirror), withJournal(&j, "j"))
	require.NoError(t, err)
	want(t, 14, c)
	assert.Equal(t, se.Done, c.Resumed)
}

// TestProgressPanics: a progress callback that panics, on the engine's
// goroutine or before the first task, ends the count with an error
// naming it (it had ended the process); the journal keeps what was done.
func TestProgressPanics(t *testing.T) {
	var j memJournal
	calls := 0
	_, err := Count(context.Background(), 14, WithMethod(Mirror), WithWorkers(2), withJournal(&j, "j"), WithProgress(func(p Progress) {
		if calls++; p.TasksDone == 5 {
			panic("callback bug")
		}
	}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the WithProgress callback panicked: callback bug")
	c, err := Count(context.Background(), 14, WithMethod(Mirror), withJournal(&j, "j"))
	require.NoError(t, err)
	want(t, 14, c)
	assert.GreaterOrEqual(t, c.Resumed, 5)
	_, err = Count(context.Background(), 10, WithProgress(func(Progress) { panic(errors.New("at once")) }))
	assert.ErrorContains(t, err, "the WithProgress callback panicked: at once")
	for _, err := range Table(context.Background(), 8, 12, WithProgress(func(p Progress) {
		if p.N == 10 {
			panic("row 10")
		}
	})) {
		if err != nil {
			assert.ErrorContains(t, err, "panicked: row 10")
			break
		}
	}
}

// TestTableProgress checks that a table's progress grows to its plan and
// is weighted by work across n: the last row is most of it.
func TestTableProgress(t *testing.T) {
	var seen []Progress
	var rows []int
	for c, err := range Table(context.Background(), 0, 13, WithMethod(Sym), WithProgress(func(p Progress) { seen = append(seen, p) })) {
		require.NoError(t, err)
		want(t, c.N, c)
		rows = append(rows, c.N)
	}
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}, rows)
	require.NotEmpty(t, seen)
	for i := 1; i < len(seen); i++ {
		assert.GreaterOrEqual(t, seen[i].Done, seen[i-1].Done, "progress never goes back")
	}
	last := seen[len(seen)-1]
	assert.InDelta(t, last.Planned, last.Done, 1e-6*last.Planned)
	assert.Equal(t, last.Tasks, last.TasksDone)
	// When row 13 starts, under a fifth of the work is done (it has 73712
	// of the 94,000 solutions).
	for _, p := range seen {
		if p.N == 13 {
			assert.Less(t, p.Done/p.Planned, 0.25)
			break
		}
	}
	for _, err := range Table(context.Background(), 10, 16, WithMemory(100<<10), WithWorkers(4)) {
		assert.ErrorIs(t, err, ErrInvalid, "memory checked before the first row")
		break
	}
}

// TestList checks List's order against the reference, its early stop, and
// placed queens.
func TestList(t *testing.T) {
	for _, n := range []int{0, 1, 4, 8, 9} {
		var want, got [][]int
		reference.Solutions(n, func(s []int) bool { want = append(want, slices.Clone(s)); return true })
		for cols, err := range List(context.Background(), n) {
			require.NoError(t, err)
			got = append(got, slices.Clone(cols))
		}
		assert.Equal(t, want, got, "n=%d", n)
	}
	k := 0
	for range List(context.Background(), 12) {
		if k++; k == 3 {
			break
		}
	}
	assert.Equal(t, 3, k)
	cols, err := Solve(context.Background(), 6, WithPlaced(Square{Row: 0, Col: 1}))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3, 5, 0, 2, 4}, cols)
	_, err = Solve(context.Background(), 6, WithPlaced(Square{Row: 0, Col: 0}))
	assert.ErrorIs(t, err, ErrNoSolution)
	_, err = Solve(context.Background(), 3)
	assert.ErrorIs(t, err, ErrNoSolution)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, err := range List(ctx, 12) {
		assert.ErrorIs(t, err, context.Canceled)
	}
}

// TestStatusRate checks the rate and ETA Status derives from a journal's
// start and its last write.
func TestStatusRate(t *testing.T) {
	var j memJournal
	_, err := Count(context.Background(), 12, WithShard(0, 2, nil), withJournal(&j, "j"))
	require.NoError(t, err)
	f, err := resultfile.Read(bytes.NewReader(j.data))
	require.NoError(t, err)
	// Keep the first half of the records: a run in progress.
	half := resultfile.AppendHeader(nil, f.Header)
	for _, r := range f.Records[:len(f.Records)/2] {
		half = resultfile.AppendRecord(half, f.Header, r)
	}
	started := time.Unix(f.Header.Started, 0)
	st, err := Status(context.Background(), File{Name: "j", R: bytes.NewReader(half), ModTime: started.Add(10 * time.Second)})
	require.NoError(t, err)
	s := st.PerShard[0]
	assert.Equal(t, len(f.Records)/2, s.TasksDone)
	assert.InDelta(t, s.WorkDone/10, s.Rate, 1e-9, "work per second since the journal started")
	assert.InDelta(t, (s.Work-s.WorkDone)/s.Rate, s.ETA.Seconds(), 1e-6)
	assert.Equal(t, []int{1}, st.Missing)
	assert.Equal(t, s.Rate, st.Total.Rate)
	// Without a modification time there is no rate.
	st, err = Status(context.Background(), File{Name: "j", R: bytes.NewReader(half)})
	require.NoError(t, err)
	assert.Zero(t, st.PerShard[0].Rate)
	assert.Zero(t, st.Total.ETA)

	// A start time from a wrong clock (1970, or after the last write)
	// gives no rate and no ETA, never a negative or overflowing one
	// (eta_seconds was -9223372036.85).
	for _, start := range []int64{1, time.Now().Add(time.Hour).Unix()} {
		h := f.Header
		h.Started = start
		bad := resultfile.AppendHeader(nil, h)
		for _, r := range f.Records[:len(f.Records)/2] {
			bad = resultfile.AppendRecord(bad, h, r)
		}
		st, err = Status(context.Background(), File{Name: "j", R: bytes.NewReader(bad), ModTime: time.Now()})
		require.NoError(t, err)
		assert.Zero(t, st.PerShard[0].Rate, "started %d", start)
		assert.Zero(t, st.Total.ETA, "started %d", start)
	}
	// A rate so small that the time left passes what a Duration holds is
	// capped, never wrapped to a negative.
	assert.Equal(t, maxETA, eta(1e300, 1e-300))
	assert.Equal(t, 2*time.Second, eta(4, 2))
}

// TestCheck counts with a second method, and agree refuses counts that
// differ in the total or in a class count.
func TestCheck(t *testing.T) {
	for _, m := range []Method{Join, Sym, Mirror} {
		c, err := Count(context.Background(), 12, WithMethod(m), WithCheck())
		require.NoError(t, err, "%s", m)
		want(t, 12, c)
		assert.Equal(t, Method(partition.Other(partition.Method(m))), c.CheckedBy, "%s", m)
	}
	_, err := Count(context.Background(), 8, WithCheck(), WithShard(0, 2, nil))
	assert.ErrorIs(t, err, ErrInvalid)
	a := Counts{N: 8, Method: Sym, Total: UintOf(92), has: hasUnique | hasSymmetric, unique: UintOf(12), point: UintOf(4)}
	b := a
	b.Method = Join
	assert.NoError(t, agree(a, b))
	b.point = UintOf(5)
	assert.ErrorIs(t, agree(a, b), ErrMismatch)
	b = a
	b.Total = UintOf(93)
	assert.ErrorIs(t, agree(a, b), ErrMismatch)
	b = Counts{N: 8, Method: Mirror, Total: UintOf(92)}
	assert.NoError(t, agree(a, b), "mirror has no class counts to compare")
}

// TestFiles: a journal and shard files by path, locked while a run holds
// them, merged from disk.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var paths []string
	for i := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.result", i))
		_, err := Count(ctx, 12, WithShardFile(i, 2, p), WithJournalFile(p+".journal"))
		require.NoError(t, err)
		paths = append(paths, p)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "two shard files; their journals go once the shard files hold every task; no .tmp left")
	var files []File
	for _, p := range paths {
		files = append(files, File{Name: p}) // opened by Merge
	}
	c, err := Merge(context.Background(), files...)
	require.NoError(t, err)
	want(t, 12, c)

	again, err := Count(ctx, 12, WithShardFile(0, 2, paths[0]))
	require.NoError(t, err)
	assert.True(t, again.ReadBack, "a finished shard file is read back, not counted again")
	assert.Equal(t, 0, again.Shard)

	jpath := filepath.Join(dir, "held.journal")
	require.NoError(t, os.WriteFile(jpath, nil, 0o644))
	held, err := os.Open(jpath)
	require.NoError(t, err)
	defer held.Close()
	require.NoError(t, resultfile.Lock(held))
	_, err = Count(ctx, 12, WithShardFile(0, 2, filepath.Join(dir, "other.result")), WithJournalFile(jpath))
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, "journal", fe.Role)
	assert.ErrorIs(t, err, ErrLocked)
	_, err = Count(ctx, 12, WithShardFile(0, 2, dir))
	assert.ErrorIs(t, err, ErrInvalid)
	_, err = Merge(ctx, File{Name: dir})
	assert.ErrorContains(t, err, "is not a regular file (it is a directory)")
}

// withJournal journals the run to j, as [WithJournalFile] does to a file;
// name names it in messages. The tests journal to memory with it (given
// with Count only: no call refuses it).
func withJournal(j journal, name string) CountOption {
	return countOnly{set: set{"withJournal", func(c *config) { c.journal, c.jname = j, name }}}
}

// TestMergeCommittedN22 merges the committed shard files of n = 22
// (bench/data/n22, counted by scripts/shards.sh): they must still be
// the current plan (fingerprint, task IDs, costs) and sum to the published
// counts, so a change that would orphan stored shards fails here first.
func TestMergeCommittedN22(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("bench", "data", "n22", "shard-*.result"))
	require.NoError(t, err)
	require.NotEmpty(t, names, "the committed n = 22 shard files")
	var files []File
	for _, name := range names {
		files = append(files, File{Name: name})
	}
	c, err := Merge(context.Background(), files...)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(known.Total[22]), c.Total.String())
	u, ok := c.Unique()
	require.True(t, ok, "a whole join derives unique")
	assert.Equal(t, fmt.Sprint(known.Unique[22]), u.String())
	p, ok := c.PointSymmetric()
	require.True(t, ok)
	assert.Equal(t, fmt.Sprint(known.PointSym(22)), p.String())
	assert.Equal(t, Join, c.Method)
	assert.Equal(t, 1, c.Shards)
	assert.False(t, c.Partial())
}

// TestCommittedN23 checks the n = 23 count kept in bench/data/n23: the
// header and end line of each of its 128 shard files (shards.csv; the
// files themselves are in the history, see the folder's README), each
// line under its own checksum, all of one plan, their sums the published
// counts; and the two shard files kept whole, which must be the files
// those lines and digests describe.
func TestCommittedN23(t *testing.T) {
	shards := readN23Summary(t)
	require.Len(t, shards, 128)
	var total, point, rot90 wide.Uint
	records := 0
	for i, s := range shards {
		assert.Equal(t, i, s.head.Shard, "row %d holds shard %d", i, s.head.Shard)
		assert.Equal(t, []any{23, "join", "-", n23Plan, n23Tasks, 128}, []any{s.head.N, s.head.Method, s.head.Placed, s.head.Plan, s.head.Tasks, s.head.Shards}, "shard %d's header", i)
		records += s.end.Records
		total = total.Add(uintOf(t, s.end.Total))
		point = point.Add(uintOf(t, s.end.Point))
		rot90 = rot90.Add(uintOf(t, s.end.Rot90))
	}
	assert.Equal(t, n23Tasks, records, "the shards' records cover the plan once")
	assert.Equal(t, fmt.Sprint(known.Total[23]), total.String())
	assert.Equal(t, fmt.Sprint(known.PointSym(23)), point.String())
	u, err := burnside(23, total, point, rot90)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(known.Unique[23]), u.String())

	for _, i := range n23Kept {
		name := filepath.Join("bench", "data", "n23", fmt.Sprintf("shard-%d-of-128.result", i))
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		assert.Equal(t, shards[i].bytes, len(data), "%s's size", name)
		assert.Equal(t, shards[i].sha256, fmt.Sprintf("%x", sha256.Sum256(data)), "%s's digest", name)
		f, err := resultfile.Read(bytes.NewReader(data))
		require.NoError(t, err, name)
		assert.Equal(t, shards[i].head, f.Header, name)
		assert.Equal(t, shards[i].end, *f.End, name)
	}
}

// TestCommittedN23Plan checks the kept n = 23 shard files against the current
// plan (a change of plan that would orphan a campaign's files fails
// here) and recounts a fixed sample of their tasks.
func TestCommittedN23Plan(t *testing.T) {
	long.Skip(t, "plans n = 23 (4 M tasks) and recounts 1% of two of its shards: about a minute")
	var files []File
	for _, i := range n23Kept {
		files = append(files, File{Name: filepath.Join("bench", "data", "n23", fmt.Sprintf("shard-%d-of-128.result", i))})
	}
	rep, err := Status(context.Background(), files...)
	require.NoError(t, err)
	assert.Equal(t, []any{23, 128}, []any{rep.N, rep.Shards})
	for _, i := range n23Kept {
		assert.True(t, rep.PerShard[i].Complete(), "shard %d's file holds it whole", i)
	}
	n, err := Audit(context.Background(), 0.01, 23, files)
	require.NoError(t, err)
	assert.Greater(t, n, 400, "tasks recounted")
}

// n23Plan and n23Tasks identify the plan the n = 23 shards were counted
// in; n23Kept are the shards whose files are kept whole.
const (
	n23Plan  = "3731251fb58f527240697594"
	n23Tasks = 4056792
)

var n23Kept = []int{0, 10}

// n23Shard is one row of bench/data/n23/shards.csv: a shard file's size,
// SHA-256, and its header and end lines parsed.
type n23Shard struct {
	bytes  int
	sha256 string
	head   resultfile.Header
	end    resultfile.Sums
}

// readN23Summary reads bench/data/n23/shards.csv, checking each header
// and end line's checksum as a shard file's reader does: the end line's
// is seeded with its header's identity, so a line edited or moved to
// another shard's row fails.
func readN23Summary(t *testing.T) []n23Shard {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("bench", "data", "n23", "shards.csv"))
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	require.Equal(t, "shard,bytes,sha256,header,end", lines[0])
	var out []n23Shard
	for _, row := range lines[1:] {
		f := strings.Split(row, ",")
		require.Len(t, f, 5, row)
		var s n23Shard
		s.bytes, err = strconv.Atoi(f[1])
		require.NoError(t, err, row)
		s.sha256 = f[2]
		_, s.head, err = resultfile.ReadHeader(bufio.NewReader(strings.NewReader(f[3] + "\n")))
		require.NoError(t, err, row)
		body, sum, ok := strings.Cut(f[4], " crc=")
		require.True(t, ok, row)
		assert.Equal(t, fmt.Sprintf("%08x", crc32.Update(s.head.Seed(), crc32.MakeTable(crc32.Castagnoli), []byte(body))), sum, "shard %d's end line checksum", s.head.Shard)
		s.end = resultfile.Sums{Total: new(big.Int), Unique: new(big.Int), Point: new(big.Int), Rot90: new(big.Int), Nodes: new(big.Int)}
		_, err = fmt.Sscanf(body, "end records=%d total=%d unique=%d point=%d rot90=%d nodes=%d", &s.end.Records, s.end.Total, s.end.Unique, s.end.Point, s.end.Rot90, s.end.Nodes)
		require.NoError(t, err, row)
		out = append(out, s)
	}
	return out
}

// uintOf converts a count read from a file.
func uintOf(t *testing.T, x *big.Int) wide.Uint {
	t.Helper()
	u, ok := wide.FromBig(x)
	require.True(t, ok, "%s fits", x)
	return u
}

// TestNilAndEmptyOptions: a nil Option and a journal or shard file named
// "" are input errors, never a panic or a run without the file.
func TestNilAndEmptyOptions(t *testing.T) {
	_, err := Count(context.Background(), 8, nil)
	require.ErrorIs(t, err, ErrInvalid)
	assert.EqualError(t, err, "Count: option 1 of 1 is nil (leave out an option not wanted)")
	_, err = Count(context.Background(), 8, WithWorkers(1), nil)
	assert.ErrorContains(t, err, "option 2 of 2 is nil")
	_, err = Count(context.Background(), 8, WithJournalFile(""))
	require.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, `WithJournalFile("") names no file`)
	_, err = Count(context.Background(), 8, WithShardFile(0, 2, ""))
	require.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, `names no file`)
}

// TestFits: the one memory rule the library applies before planning
// (config.fits): a plan fits when engine.MemoryNeed is within the limit, and
// otherwise Count, Table and CountShards all refuse it with the same
// *MemoryError.
func TestFits(t *testing.T) {
	c, err := newConfig("Count", []CountOption{WithWorkers(2), WithMemory(64 << 20)})
	require.NoError(t, err)
	need := engine.MemoryNeed(31, partition.Join, 1_000_000_000, 2)
	var me *MemoryError
	require.ErrorAs(t, c.fits(31, partition.Join, 1_000_000_000, 4), &me)
	assert.Equal(t, []any{31, Join, 2, 1_000_000_000, 4, int64(64 << 20), need}, []any{me.N, me.Method, me.Workers, me.Tasks, me.Shards, me.Limit, me.Need})
	assert.NoError(t, c.fits(8, partition.Mirror, 100, 1))

	ctx := context.Background()
	small := []CountOption{WithMethod(Join), WithWorkers(2), WithMemory(64 << 20)}
	_, err = Count(ctx, 31, small...)
	require.ErrorAs(t, err, &me, "Count")
	tasks := me.Tasks
	for _, err := range Table(ctx, 31, 31, WithMethod(Join), WithWorkers(2), WithMemory(64<<20)) {
		require.ErrorAs(t, err, &me, "Table")
		assert.Equal(t, []any{31, Join, 2, tasks, 1, int64(64 << 20), engine.MemoryNeed(31, partition.Join, tasks, 2)}, []any{me.N, me.Method, me.Workers, me.Tasks, me.Shards, me.Limit, me.Need})
	}
}

// TestOptionsOnce: an option given twice is refused, naming it, rather
// than the last silently winning (Count(8, WithShard(0, 2, &a),
// WithShard(1, 2, &b)) counted shard 1 and left a empty).
func TestOptionsOnce(t *testing.T) {
	ctx := context.Background()
	var a, b bytes.Buffer
	_, err := Count(ctx, 8, WithShard(0, 2, &a), WithShard(1, 2, &b))
	require.ErrorIs(t, err, ErrInvalid)
	assert.EqualError(t, err, "Count: WithShard is given twice (options 1 and 2 of 2): give each option once")
	assert.Zero(t, a.Len()+b.Len(), "nothing counted")
	_, err = Count(ctx, 8, WithMethod(Sym), WithWorkers(1), WithMethod(Mirror))
	assert.EqualError(t, err, "Count: WithMethod is given twice (options 1 and 3 of 3): give each option once")
	_, err = Count(ctx, 8, WithJournalFile("a"), WithJournalFile("b"))
	assert.ErrorContains(t, err, "WithJournalFile is given twice")
	_, err = Estimate(ctx, 8, WithSample(0), WithSample(time.Second))
	assert.ErrorContains(t, err, "WithSample is given twice")
	tor, err := Count(ctx, 7, WithPiece(Queen), WithTorus())
	require.NoError(t, err, "two options of one type are two options")
	assert.Equal(t, "28", tor.Total.String())
	c, err := Count(ctx, 8, WithMethod(Sym), WithWorkers(1), WithMemory(1<<30), WithPiece(Queen), WithGrace(0), WithCheck())
	require.NoError(t, err)
	assert.Equal(t, "92", c.Total.String())
}

// TestNilContext: every call that takes a context refuses a nil one with
// an input error instead of panicking (Count, List and Merge did).
func TestNilContext(t *testing.T) {
	var none context.Context
	check := func(call string, err error) {
		t.Helper()
		assert.ErrorIs(t, err, ErrInvalid, call)
		assert.ErrorContains(t, err, call+": nil context")
	}
	_, err := Count(none, 8)
	check("Count", err)
	_, err = Solve(none, 8)
	check("Solve", err)
	for _, err := range List(none, 8) {
		check("List", err)
	}
	for _, err := range Table(none, 4, 8) {
		check("Table", err)
	}
	for _, err := range CountShards(none, 8, t.TempDir(), 0, 1, 2) {
		check("CountShards", err)
	}
	_, err = Estimate(none, 8)
	check("Estimate", err)
	_, _, err = Forecast(none, 8)
	check("Forecast", err)
	_, err = Merge(none, File{Name: "x"})
	check("Merge", err)
	_, err = Status(none, File{Name: "x"})
	check("Status", err)
	_, err = Audit(none, 0.5, 1, []File{{Name: "x"}})
	check("Audit", err)
}
