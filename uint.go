package nqueens

import (
	"fmt"
	"math/big"

	"github.com/nqueens/nqueens/engine"
)

// Uint is an exact count of up to 320 bits, room for any count on a board
// of up to 64 rows: a(29) already passes 2^64, node counts pass it near
// n = 27, and 64 rooks make 64! ≈ 2^296. A value (comparable with ==; the
// zero value is 0); fmt prints it in decimal.
type Uint struct {
	w [engine.UintWords]uint64 // least significant first
}

// uintOf returns the engine's count as a Uint.
func uintOf(e engine.Uint) Uint { return Uint{e.Words()} }

// engine returns u as the engine's count.
func (u Uint) engine() engine.Uint { return engine.UintFromWords(u.w) }

// String returns u in decimal.
func (u Uint) String() string { return u.engine().String() }

// Format makes fmt print u as the integer it is, with every integer verb
// (%d, %v, %s, %x with widths and flags), as a [big.Int] prints it.
func (u Uint) Format(f fmt.State, verb rune) { u.engine().Format(f, verb) }

// Big returns u as a [big.Int].
func (u Uint) Big() *big.Int { return u.engine().Big() }

// Uint64 returns u and whether it fits in 64 bits.
func (u Uint) Uint64() (uint64, bool) { return u.engine().Uint64() }

// Float64 returns u rounded to the nearest float64 (for rates).
func (u Uint) Float64() float64 { return u.engine().Float64() }
