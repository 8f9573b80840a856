//go:build linux

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefaultMemoryCgroup runs this test binary again inside a memory
// cgroup of 256 MiB (made here, where the machine lets root make one:
// cgroup v1's memory controller or v2's memory.max) and checks that its
// default memory is half of that, not half of physical memory: a count in
// a container, a pod or a Slurm job with --mem sizes its join buffers and
// cache to its limit.
func TestDefaultMemoryCgroup(t *testing.T) {
	if os.Getenv("NQUEENS_CGROUP_CHILD") != "" {
		fmt.Printf("DEFAULT_MEMORY=%d\n", DefaultMemory())
		return
	}
	const limit = 256 << 20
	dir, err := memoryCgroup(limit)
	if err != nil {
		t.Skipf("no memory cgroup can be made here: %v", err)
	}
	defer os.Remove(dir)
	cmd := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" -test.run '^TestDefaultMemoryCgroup$'`, "sh", dir, os.Args[0])
	cmd.Env = append(os.Environ(), "NQUEENS_CGROUP_CHILD=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var got int64
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(line, "DEFAULT_MEMORY="); ok {
			got, err = strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
		}
	}
	assert.Equal(t, int64(limit/2), got, "half of the cgroup's limit")
	assert.Greater(t, DefaultMemory(), int64(limit), "outside it, half of physical memory")
}

// memoryCgroup makes a memory cgroup of the given limit, v1 or v2, and
// returns its directory.
func memoryCgroup(limit int64) (string, error) {
	name := fmt.Sprintf("nqueens-test-%d", os.Getpid())
	try := []struct{ root, file string }{
		{"/sys/fs/cgroup/memory", "memory.limit_in_bytes"}, // v1
		{"/sys/fs/cgroup", "memory.max"},                   // v2
	}
	var errs []string
	for _, c := range try {
		dir := filepath.Join(c.root, name)
		if err := os.Mkdir(dir, 0o755); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, c.file), []byte(strconv.FormatInt(limit, 10)), 0o644); err != nil {
			os.Remove(dir)
			errs = append(errs, err.Error())
			continue
		}
		return dir, nil
	}
	return "", fmt.Errorf("%s", strings.Join(errs, "; "))
}

// TestLimitCapped: a requested limit above what the process may use is
// capped to it; one below is kept; 0 is the default, half of it.
func TestLimitCapped(t *testing.T) {
	u, what := UsableMemory()
	require.Positive(t, u, "Linux tells the physical memory")
	assert.NotEmpty(t, what)
	assert.Equal(t, u, MemoryLimit(1<<62))
	assert.Equal(t, int64(1<<20), MemoryLimit(1<<20))
	assert.Equal(t, u/2, MemoryLimit(0))
}
