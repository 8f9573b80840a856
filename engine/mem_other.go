//go:build !linux

package engine

// physicalMemory is the machine's RAM in bytes, or 0 if unknown: unknown
// outside Linux.
func physicalMemory() uint64 { return 0 }
