//go:build unix

package resultfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLock locks a file twice in this process (two open files: the second
// is refused) and once from another process, whose pid the error names on
// Linux.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	a, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, Lock(a))
	b, err := os.Open(path)
	require.NoError(t, err)
	defer b.Close()
	err = Lock(b)
	assert.ErrorIs(t, err, ErrLocked)
	assert.ErrorContains(t, err, path)
	require.NoError(t, a.Close())
	require.NoError(t, Lock(b), "free once the holder closes it")
	require.NoError(t, b.Close())

	flock, err := exec.LookPath("flock")
	if err != nil {
		t.Skip("no flock(1) for the other process")
	}
	holder := exec.Command(flock, "-x", path, "sleep", "30")
	require.NoError(t, holder.Start())
	defer holder.Process.Kill()
	c, err := os.Open(path)
	require.NoError(t, err)
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for err = Lock(c); err == nil && time.Now().Before(deadline); err = Lock(c) {
		c.Close() // flock(1) has not locked it yet
		c, _ = os.Open(path)
		time.Sleep(10 * time.Millisecond)
	}
	assert.ErrorIs(t, err, ErrLocked)
	if runtime.GOOS == "linux" {
		assert.ErrorContains(t, err, "(process "+strconv.Itoa(holder.Process.Pid)+")")
	}
}
