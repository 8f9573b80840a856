package opencl

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// TestProgramCache: a device keeps the programs it builds in the cache
// folder, and the next device builds them from there; a damaged file, or
// one whose binary the runtime refuses, is built again from source and
// written anew; every count exact. NQUEENS_OPENCL_CACHE=off keeps none.
func TestProgramCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("NQUEENS_OPENCL_CACHE", dir)
	t.Setenv("NQUEENS_OPENCL_BUILD_LOG", "")
	plan, err := partition.Make(t.Context(), partition.Job{N: 12, Method: partition.Join})
	require.NoError(t, err)
	count := func() *Device {
		t.Helper()
		d := requireDevice(t)
		c := joinOnBoth(t, d, plan, nil, gpuWay)
		assert.Equal(t, wide.Of(known.Total[12]), c.Total)
		return d
	}
	files := func() []string {
		t.Helper()
		names, err := filepath.Glob(filepath.Join(dir, "*.bin"))
		require.NoError(t, err)
		return names
	}

	d := count()
	assert.Zero(t, d.cacheHits.Load(), "an empty cache")
	kept := files()
	require.NotEmpty(t, kept, "the join's program kept")
	for _, f := range kept {
		assert.NotNil(t, readCached(f), "%s reads back", f)
	}

	d = count()
	assert.Positive(t, d.cacheHits.Load(), "built from the cache")

	// A flipped byte: the checksum refuses it; built again, written anew.
	for _, f := range kept {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		b[len(b)-1] ^= 0x40
		require.NoError(t, os.WriteFile(f, b, 0o644))
		assert.Nil(t, readCached(f))
	}
	d = count()
	assert.Zero(t, d.cacheHits.Load(), "damaged files are not used")
	for _, f := range kept {
		assert.NotNil(t, readCached(f), "%s written anew", f)
	}

	// A file whose checksum holds but whose binary is not one: the
	// runtime refuses it; built again from source.
	for _, f := range kept {
		writeCached(f, []byte("not a program binary at all"))
		require.NotNil(t, readCached(f))
	}
	d = count()
	assert.Zero(t, d.cacheHits.Load(), "a binary the runtime refuses is not used")
	for _, f := range kept {
		assert.NotEqual(t, []byte("not a program binary at all"), readCached(f), "%s written anew", f)
	}

	off := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", off)
	t.Setenv("NQUEENS_OPENCL_CACHE", "off")
	d = count()
	assert.Zero(t, d.cacheHits.Load())
	left, err := os.ReadDir(off)
	require.NoError(t, err)
	assert.Empty(t, left, "off: nothing kept")
}
