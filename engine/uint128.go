package engine

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
)

// Uint128 is an unsigned 128-bit integer, wide enough for any sum of
// per-task counts: a(29) already exceeds 2^64, node counts pass it near
// n = 27.
type Uint128 struct {
	Hi, Lo uint64
}

// Add64 returns u + x; it panics if the sum would wrap past 2^128, which no
// count on a board of at most 64 rows can reach.
func (u Uint128) Add64(x uint64) Uint128 {
	lo, carry := bits.Add64(u.Lo, x, 0)
	hi, over := bits.Add64(u.Hi, 0, carry)
	if over != 0 {
		panic("engine: 128-bit count overflow")
	}
	return Uint128{Hi: hi, Lo: lo}
}

// Add returns u + v, panicking on a wrap past 2^128 like [Uint128.Add64].
func (u Uint128) Add(v Uint128) Uint128 {
	lo, carry := bits.Add64(u.Lo, v.Lo, 0)
	hi, over := bits.Add64(u.Hi, v.Hi, carry)
	if over != 0 {
		panic("engine: 128-bit count overflow")
	}
	return Uint128{Hi: hi, Lo: lo}
}

// Big returns u as a big.Int.
func (u Uint128) Big() *big.Int {
	b := new(big.Int).SetUint64(u.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(u.Lo))
}

// String returns u in decimal.
func (u Uint128) String() string {
	if u.Hi == 0 {
		return strconv.FormatUint(u.Lo, 10)
	}
	return u.Big().String()
}

// Float64 returns u rounded to the nearest float64 (for rates).
func (u Uint128) Float64() float64 {
	return float64(u.Hi)*0x1p64 + float64(u.Lo)
}

// Format makes fmt print u as the integer it is, with every integer verb
// (%d, %v, %s, %x, %o, %b with widths and flags) as a big.Int prints it.
func (u Uint128) Format(f fmt.State, verb rune) {
	if verb == 's' || verb == 'q' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), u.String())
		return
	}
	if verb == 'v' {
		verb = 'd'
	}
	u.Big().Format(f, verb)
}
