//go:build !linux

package engine

import "time"

// threadTime is the wall clock outside Linux (a thread's CPU time is read
// on Linux alone): samples there are best taken on an idle machine.
func threadTime() time.Duration { return time.Since(clockStart) }
