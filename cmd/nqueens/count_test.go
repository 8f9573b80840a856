package main

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWorkersFollowAffinity: the default workers are the CPUs the process
// may run on, not the host's cores.
func TestWorkersFollowAffinity(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command in a subprocess")
	}
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		t.Skip("no taskset")
	}
	out, err := exec.Command(taskset, "-c", "0", nqueensBinary(t), "count", "12", "--json").Output()
	require.NoError(t, err)
	assert.Contains(t, string(out), `"workers":1,`)
}
