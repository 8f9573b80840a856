//go:build !linux

package engine

// physicalMemory is the machine's RAM in bytes, or 0 if unknown: unknown
// outside Linux.
func physicalMemory() uint64 { return 0 }

// addressSpaceLimit is the process's address-space limit: unknown
// outside Linux.
func addressSpaceLimit() uint64 { return 0 }
