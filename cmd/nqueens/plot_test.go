//go:build plot

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBenchPlotPNG(t *testing.T) {
	path := filepath.Join(t.TempDir(), "speedup.png")
	runOK(t, "bench", "--quick", "-j", "2", "--cell", "1ms", "--plot", path, "--quiet")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, bytes.HasPrefix(b, []byte("\x89PNG")), "a PNG file")
}
