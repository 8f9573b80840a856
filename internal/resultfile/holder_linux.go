package resultfile

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// holder returns the process ID holding a flock on f, from /proc/locks, or
// 0 if none is found there.
func holder(f *os.File) int {
	st, err := f.Stat()
	if err != nil {
		return 0
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	// Lines read "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF", the
	// device as major:minor in hex, the inode in decimal.
	id := fmt.Sprintf("%02x:%02x:%d", unix.Major(sys.Dev), unix.Minor(sys.Dev), sys.Ino)
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	sc := bufio.NewScanner(locks)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 6 && fields[1] == "FLOCK" && fields[5] == id {
			if pid, err := strconv.Atoi(fields[4]); err == nil && pid != os.Getpid() {
				return pid
			}
		}
	}
	return 0
}
