package engine

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestThreadTime checks that a sample's clock counts the thread's work and
// not the time it waits: a sleep adds (almost) nothing, a busy loop its
// CPU time.
func TestThreadTime(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := threadTime()
	time.Sleep(100 * time.Millisecond)
	assert.Less(t, threadTime()-start, 20*time.Millisecond, "asleep")
	start = threadTime()
	deadline := time.Now().Add(10 * time.Second)
	x := uint64(1)
	for threadTime()-start < 30*time.Millisecond && time.Now().Before(deadline) {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	assert.GreaterOrEqual(t, threadTime()-start, 30*time.Millisecond, "busy (%d)", x)
}
