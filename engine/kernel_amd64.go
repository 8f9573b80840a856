//go:build amd64 && !purego

package engine

//go:generate go run -C _gen . -set walk -out ../kernel_amd64.s -stubs ../kernel_amd64_stubs.go -pkg engine

import (
	"math/bits"

	"github.com/klauspost/cpuid/v2"
)

// hasBMI tells whether the assembly backtracking kernels run (they use
// ANDN, BLSR and BLSMSK of BMI1, SHLX of BMI2, and POPCNT).
var hasBMI = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT)

// walkRows runs walk's search in assembly where the CPU has what it needs
// and the start allows it (see rotationSafe).
func walkRows(s start, posib uint64) (sols, nodes uint64) {
	if !hasBMI || !rotationSafe(s) {
		return walkGo(s, posib)
	}
	// The stack, per level: the columns taken, both diagonals shifted for
	// the next row, and the untried squares of the level above.
	var st [maxRows + 2][4]uint64
	return walkBMI(&st, s.Cols, s.LD, s.RD, posib)
}

// next runs the banned search to its next completion, in assembly where
// the CPU has what it needs.
func (bs *bannedSearch) next() bool {
	if !bs.asm {
		return bs.nextGo()
	}
	return nextBMI(&bs.lv[0].cols) // the kernel reads the whole search from there
}

// rotationSafe tells whether the assembly kernels may search from s: they
// move the right diagonal with a rotation, whose bits leaving column 0
// come back at the top and move down one column a row; with k rows left
// they stay at or above 64-k, which must be above every free column (it
// is for every n ≤ 32, and for larger boards with few rows left).
func rotationSafe(s start) bool {
	free := ^s.Cols
	return bits.Len64(free)+bits.OnesCount64(free) <= 64
}

// useAsm tells walkBanned whether its search runs in assembly.
func useAsm(s start) bool { return hasBMI && rotationSafe(s) }

// searchKernel names the backtracking kernel in use (for boards the
// rotation fits, every n ≤ 32).
func searchKernel() string {
	if hasBMI {
		return "bmi2"
	}
	return "go"
}
