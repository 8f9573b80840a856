//go:build !windows

package opencl

import "github.com/ebitengine/purego"

// openLibrary loads a shared library.
func openLibrary(name string) (uintptr, error) {
	return purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL)
}
