package opencl

import (
	"syscall"
	"unsafe"
)

// An OpenCL runtime may install signal handlers of its own when it starts
// or compiles: pocl's LLVM takes SIGINT, SIGTERM and SIGUSR2 (passing them
// on) and SIGUSR1 (keeping it), so a count on a device would never see the
// SIGUSR1 a scheduler sends before its time limit. Every call into the
// runtime that may start or compile runs inside [keepSignals], which puts
// back whatever action the program had for each asynchronous signal. The
// synchronous ones (SIGFPE, SIGSEGV, SIGBUS, SIGILL) stay the runtime's:
// they come from its own code (pocl's SIGFPE handler steps over a
// kernel's division by zero).
var keptSignals = [...]syscall.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGPIPE, syscall.SIGALRM,
	syscall.SIGTERM, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGXCPU, syscall.SIGXFSZ,
}

// sigaction holds the kernel's struct sigaction, opaquely: it is only
// read and written back. 64 bytes cover every architecture's layout.
type sigaction [8]uint64

// rtSigaction reads the action of sig into old and, where act is not nil,
// sets it first; false if the kernel refused (a signal set of another
// size: that architecture keeps whatever the runtime installs).
func rtSigaction(sig syscall.Signal, act, old *sigaction) bool {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig),
		uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	return errno == 0
}

// keepSignals notes the action of every asynchronous signal and returns
// the function that puts back those the runtime has changed since.
func keepSignals() (restore func()) {
	var saved [len(keptSignals)]sigaction
	var ok [len(keptSignals)]bool
	for i, sig := range keptSignals {
		ok[i] = rtSigaction(sig, nil, &saved[i])
	}
	return func() {
		for i, sig := range keptSignals {
			var now sigaction
			if ok[i] && rtSigaction(sig, nil, &now) && now != saved[i] {
				rtSigaction(sig, &saved[i], nil)
			}
		}
	}
}
