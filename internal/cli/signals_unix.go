//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals stop a count: Ctrl-C, a scheduler's SIGTERM, and SIGUSR1,
// which Slurm sends before a job's time limit.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1}

// signalExitCode is the exit code for a run stopped by s: 128 + its number.
func signalExitCode(s os.Signal) int {
	switch s {
	case syscall.SIGTERM:
		return ExitTerminated
	case syscall.SIGUSR1:
		return ExitUser1
	}
	return ExitInterrupted
}

// signalName is the signal's conventional name: SIGINT, SIGTERM, SIGUSR1.
func signalName(s os.Signal) string {
	switch s {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGUSR1:
		return "SIGUSR1"
	}
	return s.String()
}
