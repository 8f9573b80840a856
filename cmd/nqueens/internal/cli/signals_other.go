//go:build !unix

package cli

import (
	"os"
	"syscall"
)

// stopSignals stop a count: Ctrl-C and termination (there is no SIGUSR1).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// user1 is SIGUSR1 where the system has it: none here.
var user1 os.Signal
