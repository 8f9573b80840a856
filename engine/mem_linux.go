package engine

import "golang.org/x/sys/unix"

// physicalMemory is the machine's RAM in bytes, or 0 if unknown.
func physicalMemory() uint64 {
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) != nil {
		return 0
	}
	return uint64(info.Totalram) * uint64(info.Unit)
}

// addressSpaceLimit is the process's RLIMIT_AS (ulimit -v) in bytes, or 0
// if there is none.
func addressSpaceLimit() uint64 {
	var r unix.Rlimit
	if unix.Getrlimit(unix.RLIMIT_AS, &r) != nil || r.Cur == unix.RLIM_INFINITY {
		return 0
	}
	return r.Cur
}
