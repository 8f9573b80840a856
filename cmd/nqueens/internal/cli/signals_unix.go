//go:build unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals stop a count: Ctrl-C, a scheduler's SIGTERM, and SIGUSR1,
// which Slurm sends before a job's time limit.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGUSR1}

// user1 is SIGUSR1 where the system has it.
var user1 os.Signal = syscall.SIGUSR1
