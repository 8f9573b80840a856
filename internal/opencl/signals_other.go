//go:build !linux

package opencl

// keepSignals does nothing here: the runtimes of other systems were not
// seen to take a program's signals (see signals_linux.go).
func keepSignals() (restore func()) { return func() {} }
