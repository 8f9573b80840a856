package nqueens

import (
	"fmt"
	"math/big"

	"github.com/nqueens/nqueens/engine"
)

// Uint128 is an exact count, Hi·2^64 + Lo: a(29) already passes 2^64,
// and node counts pass it near n = 27. fmt prints it in decimal.
type Uint128 struct {
	Hi, Lo uint64
}

// String returns u in decimal.
func (u Uint128) String() string { return engine.Uint128(u).String() }

// Format makes fmt print u as the integer it is, with every integer verb
// (%d, %v, %s, %x with widths and flags), as a [big.Int] prints it.
func (u Uint128) Format(f fmt.State, verb rune) { engine.Uint128(u).Format(f, verb) }

// Big returns u as a [big.Int].
func (u Uint128) Big() *big.Int { return engine.Uint128(u).Big() }

// Uint64 returns u and whether it fits in 64 bits.
func (u Uint128) Uint64() (uint64, bool) { return u.Lo, u.Hi == 0 }

// Float64 returns u rounded to the nearest float64 (for rates).
func (u Uint128) Float64() float64 { return engine.Uint128(u).Float64() }
