//go:build !unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals stop a count: Ctrl-C and termination (there is no SIGUSR1).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// signalExitCode is the exit code for a run stopped by s.
func signalExitCode(s os.Signal) int {
	if s == syscall.SIGTERM {
		return ExitTerminated
	}
	return ExitInterrupted
}

// signalName is the signal's conventional name: SIGINT, SIGTERM.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return s.String()
}
