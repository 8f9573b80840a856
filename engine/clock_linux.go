package engine

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadTime is the CPU time the calling OS thread has used, so that a
// sample timed on a locked thread measures its own work and not what other
// processes take of the cores (a sample beside a busy count timed by the
// wall clock came out up to 8× high); the wall clock where the thread's
// clock cannot be read.
func threadTime() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return time.Since(clockStart)
	}
	return time.Duration(ts.Nano())
}
