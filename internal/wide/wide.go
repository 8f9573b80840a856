// Package wide is the exact counts' arithmetic: [Uint], a 320-bit
// unsigned integer, the engine's sums and the library's counts
// (nqueens.Uint is its defined type).
package wide

import (
	"fmt"
	"math/big"
	"math/bits"
	"strconv"
)

// Words is how many 64-bit words a Uint holds: 320 bits, room for any
// count on a board of at most 64 rows (64 rooks make 64! < 2^297; a(29)
// already exceeds 2^64, node counts pass it near n = 27).
const Words = 5

// Uint is an exact unsigned count of up to 320 bits, a value (comparable
// with ==, no allocation; the zero value is 0; fmt prints it in decimal):
// the sums of per-task counts, the closed forms' totals (rooks and kings
// beyond 128 bits), and the library's counts (nqueens.Counts): a(29)
// already passes 2^64, node counts pass it near n = 27, and 64 rooks
// make 64! ≈ 2^296.
type Uint struct {
	w [Words]uint64 // little-endian words
}

// Of returns x as a Uint.
func Of(x uint64) Uint { return Uint{w: [Words]uint64{x}} }

// FromBig returns b as a Uint, and false if b is negative or does not
// fit in 320 bits.
func FromBig(b *big.Int) (Uint, bool) {
	if b.Sign() < 0 || b.BitLen() > 64*Words {
		return Uint{}, false
	}
	var u Uint
	var buf [8 * Words]byte
	b.FillBytes(buf[:])
	for i := range Words {
		for j := range 8 {
			u.w[i] |= uint64(buf[len(buf)-1-8*i-j]) << (8 * j)
		}
	}
	return u, true
}

// Words returns u's words, least significant first.
func (u Uint) Words() [Words]uint64 { return u.w }

// FromWords returns the Uint of words w, least significant first.
func FromWords(w [Words]uint64) Uint { return Uint{w: w} }

// Uint64 returns u and whether it fits in 64 bits.
func (u Uint) Uint64() (uint64, bool) {
	return u.w[0], u.w[1]|u.w[2]|u.w[3]|u.w[4] == 0
}

// Add64 returns u + x; it panics if the sum would wrap past 2^320, which
// no count on a board of at most 64 rows can reach.
func (u Uint) Add64(x uint64) Uint { return u.Add(Of(x)) }

// Add returns u + v, panicking on a wrap past 2^320 like [Uint.Add64].
func (u Uint) Add(v Uint) Uint {
	var carry uint64
	for i := range Words {
		u.w[i], carry = bits.Add64(u.w[i], v.w[i], carry)
	}
	if carry != 0 {
		panic("320-bit count overflow")
	}
	return u
}

// Mul64 returns u·x, panicking on a wrap past 2^320.
func (u Uint) Mul64(x uint64) Uint {
	var carry uint64
	for i := range Words {
		hi, lo := bits.Mul64(u.w[i], x)
		var c uint64
		u.w[i], c = bits.Add64(lo, carry, 0)
		carry = hi + c
	}
	if carry != 0 {
		panic("320-bit count overflow")
	}
	return u
}

// Cmp returns -1, 0 or +1 as u is less than, equal to or greater than v.
func (u Uint) Cmp(v Uint) int {
	for i := Words - 1; i >= 0; i-- {
		switch {
		case u.w[i] < v.w[i]:
			return -1
		case u.w[i] > v.w[i]:
			return 1
		}
	}
	return 0
}

// Big returns u as a big.Int.
func (u Uint) Big() *big.Int {
	b := new(big.Int)
	for i := Words - 1; i >= 0; i-- {
		b.Lsh(b, 64)
		b.Or(b, new(big.Int).SetUint64(u.w[i]))
	}
	return b
}

// String returns u in decimal.
func (u Uint) String() string {
	if x, ok := u.Uint64(); ok {
		return strconv.FormatUint(x, 10)
	}
	return u.Big().String()
}

// Float64 returns u rounded to the nearest float64 (for rates).
func (u Uint) Float64() float64 {
	f := 0.0
	for i := Words - 1; i >= 0; i-- {
		f = f*0x1p64 + float64(u.w[i])
	}
	return f
}

// Format makes fmt print u as the integer it is, with every integer verb
// (%d, %v, %s, %x, %o, %b with widths and flags) as a big.Int prints it.
func (u Uint) Format(f fmt.State, verb rune) {
	if verb == 's' || verb == 'q' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), u.String())
		return
	}
	if verb == 'v' {
		verb = 'd'
	}
	u.Big().Format(f, verb)
}
