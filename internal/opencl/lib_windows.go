//go:build windows

package opencl

import "syscall"

// openLibrary loads a DLL.
func openLibrary(name string) (uintptr, error) {
	h, err := syscall.LoadLibrary(name)
	return uintptr(h), err
}
