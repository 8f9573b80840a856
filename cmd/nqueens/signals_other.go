//go:build !unix

package main

import (
	"os"
	"syscall"
)

// stopSignals stop a count: Ctrl-C and termination (there is no SIGUSR1).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// signalExitCode is the exit code for a run stopped by s.
func signalExitCode(s os.Signal) int {
	if s == syscall.SIGTERM {
		return exitTerminated
	}
	return exitInterrupted
}
