//go:build unix

package resultfile

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitIn creates, writes and commits name in the working directory dir.
func commitIn(t *testing.T, dir, name string) {
	t.Helper()
	t.Chdir(dir)
	p, err := Create(name, testHeader)
	require.NoError(t, err)
	_, err = p.Write([]byte("x\n"))
	require.NoError(t, err)
	require.NoError(t, p.Commit())
	b, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(b))
	left, _ := filepath.Glob(filepath.Join(dir, ".*"))
	assert.Empty(t, left, "no temporary or lock file left")
}

// TestCreateBareName: a bare name's temporary file lies in the working
// directory, never in $TMPDIR, so the rename cannot cross file systems
// (a tmpfs working directory with /tmp on the disk lost
// the finished shard) and a $TMPDIR that does not exist changes nothing.
func TestCreateBareName(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", "/nonexistent")
	commitIn(t, dir, "s0.r")

	shm, err := os.MkdirTemp("/dev/shm", "nqueens-test-")
	if err != nil {
		t.Skip("no /dev/shm here for a second file system")
	}
	defer os.RemoveAll(shm)
	other, err := os.MkdirTemp("/tmp", "nqueens-test-")
	require.NoError(t, err)
	defer os.RemoveAll(other)
	var a, b syscall.Stat_t
	require.NoError(t, syscall.Stat(shm, &a))
	require.NoError(t, syscall.Stat(other, &b))
	if a.Dev == b.Dev {
		t.Skip("/dev/shm and the test's temporary directory are one file system here")
	}
	t.Setenv("TMPDIR", other)
	commitIn(t, shm, "s1.r")
}

// TestCreateRenameFails: a rename that fails (as across file systems)
// keeps the complete file and names it.
func TestCreateRenameFails(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	rename = func(string, string) error { return &os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.EXDEV} }
	defer func() { rename = os.Rename }()
	p, err := Create("s.r", testHeader)
	require.NoError(t, err)
	p.Write([]byte("done\n"))
	err = p.Commit()
	require.ErrorIs(t, err, syscall.EXDEV)
	assert.Contains(t, err.Error(), "the complete file is kept as .s.r.")
	kept, _ := filepath.Glob(filepath.Join(dir, ".s.r.*.tmp"))
	require.Len(t, kept, 1)
	b, _ := os.ReadFile(kept[0])
	assert.Equal(t, "done\n", string(b))
	p.Abort() // after a failed commit: keeps it
	_, err = os.Stat(kept[0])
	assert.NoError(t, err)
	_, err = os.Stat(LockName("s.r"))
	assert.True(t, errors.Is(err, os.ErrNotExist), "lock released")
}

// TestCreateLocked: while one run writes a path, a second is refused at
// once naming the path (both finished and one shard
// was lost); once the first commits or aborts, the path is free again.
// From another process the error names its pid on Linux.
func TestCreateLocked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "same.r")
	a, err := Create(path, testHeader)
	require.NoError(t, err)
	_, err = Create(path, testHeader)
	require.ErrorIs(t, err, ErrLocked)
	assert.Contains(t, err.Error(), path+" is locked by another nqueens run")
	_, err = Create(filepath.Join(dir, ".", "same.r"), testHeader)
	require.ErrorIs(t, err, ErrLocked, "another spelling of the path")
	a.Abort()
	b, err := Create(path, testHeader)
	require.NoError(t, err)
	own := testHeader
	own.Kind = Shard
	_, err = b.Write(AppendEnd(AppendHeader(nil, own), own, nil))
	require.NoError(t, err)
	require.NoError(t, b.Commit())
	c, err := Create(path, testHeader)
	require.NoError(t, err, "free after a commit")
	c.Abort()

	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("no flock(1) for the other process")
	}
	// flock(1) does not check that the file it locked is still at the
	// name, so nothing here may create or remove the lock file until it
	// says it holds the lock (a Create and Abort in between left it
	// holding a removed file on a slow CI machine).
	holder := exec.Command(flock, "-x", LockName(path), "sh", "-c", "echo locked; exec sleep 30")
	holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its sleep too
	out, err := holder.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, holder.Start())
	defer holder.Wait()
	defer syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, "locked\n", line)
	_, err = Create(path, testHeader)
	assert.ErrorIs(t, err, ErrLocked)
	if runtime.GOOS == "linux" {
		assert.Contains(t, err.Error(), "(process "+strconv.Itoa(holder.Process.Pid)+")")
	}
}

// TestCreateStale: the temporary files a run killed with -9 left beside
// the path are removed by the next run on it; other files are not.
func TestCreateStale(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.r")
	for _, name := range []string{".s.r.0123456789abcdef.tmp", ".s.r.123456.tmp", "s.r.tmp", ".s.r.x.tmp", ".s.rr.01.tmp", ".other.01.tmp"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".s.r.0a.tmp"), 0o755))
	p, err := Create(path, testHeader)
	require.NoError(t, err)
	require.NoError(t, p.Commit())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"s.r", "s.r.tmp", ".s.r.x.tmp", ".s.rr.01.tmp", ".other.01.tmp", ".s.r.0a.tmp"}, names)
}

// TestCreateMode: shard files get the journals' mode, less the umask.
func TestCreateMode(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "s.r")
	p, err := Create(path, testHeader)
	require.NoError(t, err)
	require.NoError(t, p.Commit())
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
}

// testHeader is the count the tests' shard files belong to.
var testHeader = Header{Kind: Shard, Tool: "test", N: 8, Method: "mirror", Placed: "-", Plan: "p", Tasks: 4, Shard: 0, Shards: 2}

// TestCreateRefusesOtherCounts: a path holding a journal, or another
// count's shard file, is not replaced (--out renamed a
// shard file over a live journal); this shard's own file from an earlier
// run and a file that is no nqueens file are.
func TestCreateRefusesOtherCounts(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, h Header) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, AppendHeader(nil, h), 0o644))
		return path
	}
	journal := testHeader
	journal.Kind, journal.N, journal.Shards = Journal, 17, 1
	other := testHeader
	other.Shard = 1
	for _, tc := range []struct {
		name string
		path string
		want string
	}{
		{"journal", write("j", journal), "j is the journal of a count (n = 17 (queen, mirror)) and holds another count's work: a shard file would replace it; resume that count with --checkpoint"},
		{"other shard", write("o", other), "o is the shard file of another count (n = 8 (queen, mirror), shard 1 of 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Create(tc.path, testHeader)
			require.ErrorIs(t, err, ErrOtherCount)
			assert.Contains(t, err.Error(), tc.want)
			b, _ := os.ReadFile(tc.path)
			assert.True(t, len(b) > 0 && b[0] == 'n', "the file is untouched")
			left, _ := filepath.Glob(filepath.Join(dir, ".*"))
			assert.Empty(t, left, "no temporary or lock file left")
		})
	}
	p, err := Create(write("same", testHeader), testHeader)
	require.NoError(t, err, "this shard's own file")
	p.Abort()
	// Any other file is kept: no shard file replaces it.
	text := filepath.Join(dir, "text")
	require.NoError(t, os.WriteFile(text, []byte("notes\n"), 0o644))
	_, err = Create(text, testHeader)
	require.ErrorIs(t, err, ErrExists)
	b, _ := os.ReadFile(text)
	assert.Equal(t, "notes\n", string(b))
}

// TestLockPathShared: a journal's lock and a shard file's are one lock, so
// neither kind of run can write a path the other holds.
func TestLockPathShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "J.journal")
	l, err := LockPath(path)
	require.NoError(t, err)
	_, err = Create(path, testHeader)
	require.ErrorIs(t, err, ErrLocked)
	l.Release()
	p, err := Create(path, testHeader)
	require.NoError(t, err)
	_, err = LockPath(path)
	require.ErrorIs(t, err, ErrLocked)
	p.Abort()
}

// TestLockNoFollow: a symbolic link planted where the lock file goes is
// refused, and its target is never created.
func TestLockNoFollow(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.Symlink(victim, filepath.Join(dir, ".v.result.lock")))
	_, err := Create(filepath.Join(dir, "v.result"), testHeader)
	require.ErrorIs(t, err, ErrNotRegular)
	assert.Contains(t, err.Error(), "lock file")
	_, err = os.Lstat(victim)
	assert.True(t, os.IsNotExist(err), "the link's target was not created")
}

// TestRemoveStale removes the stale temporary files of one result file
// (".BASE.HEX.tmp") and nothing else: not another file's, not a file
// that merely ends in a hex name and ".tmp".
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".n20.result.1a2b.tmp", ".n21.result.1a2b.tmp", "deadbeef.tmp", ".n20.result.xyz.tmp", "n20.result"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), nil, 0o644))
	}
	removeStale(dir, "n20.result")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	assert.ElementsMatch(t, []string{".n21.result.1a2b.tmp", "deadbeef.tmp", ".n20.result.xyz.tmp", "n20.result"}, left)
}
