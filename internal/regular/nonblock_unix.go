//go:build unix

package regular

import "syscall"

const oNonBlock = syscall.O_NONBLOCK
