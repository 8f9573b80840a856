package nqueens

import (
	"fmt"
	"math/big"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// Counts is what a count found. The total is always there; the unique,
// point-symmetric and rot90-symmetric counts only where the method gives
// them (sym and join, and for a join shard the symmetric ones alone): their
// methods say whether they are present, and never return a zero that is
// not a count.
type Counts struct {
	N      int
	Method Method
	// Piece is what was counted ([Queen] unless [WithPiece]); Torus tells
	// that the diagonals wrapped around ([WithTorus]).
	Piece Piece
	Torus bool
	// Placed lists the queens every counted solution holds, by row.
	Placed []Square
	// Total is the number of solutions (of this shard, for a shard).
	Total Uint
	// Nodes measures the work: queens placed for sym and mirror, pairs
	// of quarter placements tried for join; comparable within a method.
	Nodes Uint
	// Tasks is the number of tasks counted (this shard's), Resumed how
	// many of them came from the journal.
	Tasks, Resumed int
	// ReadBack tells that the counts were read back from the shard file
	// a run before wrote, not counted ([CountShards]; Resumed is Tasks).
	ReadBack bool
	// Shard and Shards name the shard counted; Shards is 1 for a whole
	// count.
	Shard, Shards int
	// Workers is how many CPU workers ran tasks (0 for a merge, and for
	// a count on devices alone).
	Workers int
	// Devices names the devices that counted beside them ([WithDevice]).
	Devices []string
	// DeviceJoin tells where the devices' join spent its time (the
	// host's listing and sorting, waiting, copying, the kernel) and what
	// its launches held; nil unless devices counted by the join.
	DeviceJoin *engine.JoinProfile
	// CheckedBy is the method that counted the board again and agreed
	// ([WithCheck]), or "".
	CheckedBy Method
	// Elapsed is the time the count took (0 for a merge); Startup the
	// part of it the devices took to start, summed over them: their
	// contexts and the programs they built (0 on the CPU alone).
	Elapsed, Startup time.Duration
	// MemoryLimit is the limit a join ran under (0 for other methods).
	MemoryLimit int64
	// Notes are things a person may want to know that are not errors: a
	// torn journal record counted again, duplicates accepted.
	Notes []string

	has                  present
	unique, point, rot90 Uint
}

// present says which class counts a Counts holds.
type present uint8

const (
	hasUnique present = 1 << iota
	hasSymmetric
)

// Unique returns the number of classes of solutions under the 8 symmetries
// of the square (OEIS A002562), and whether the counts hold it: mirror
// counts and join shards do not.
func (c Counts) Unique() (Uint, bool) { return c.unique, c.has&hasUnique != 0 }

// PointSymmetric returns the number of solutions equal to their 180°
// rotation (A032522), and whether the counts hold it (not for mirror).
func (c Counts) PointSymmetric() (Uint, bool) { return c.point, c.has&hasSymmetric != 0 }

// Rot90Symmetric returns the number of solutions equal to their 90°
// rotation (A033148), and whether the counts hold it (not for mirror).
func (c Counts) Rot90Symmetric() (Uint, bool) { return c.rot90, c.has&hasSymmetric != 0 }

// Partial reports whether the counts are one shard's, not the board's.
func (c Counts) Partial() bool { return c.Shards > 1 }

// String returns the total in decimal.
func (c Counts) String() string { return c.Total.String() }

// Format prints the total as [Uint] does, with any integer verb.
func (c Counts) Format(f fmt.State, verb rune) { c.Total.Format(f, verb) }

// agree returns an error unless a and b, counts of one board by two
// methods, have the same total and, where both have them, the same class
// counts.
func agree(a, b Counts) error {
	if a.Total != b.Total {
		return fmt.Errorf("%w: for n = %d %s counted %s, %s counted %s", ErrMismatch, a.N, a.Method, a.Total, b.Method, b.Total)
	}
	ua, ok1 := a.Unique()
	ub, ok2 := b.Unique()
	if ok1 && ok2 && (ua != ub || a.point != b.point || a.rot90 != b.rot90) {
		return fmt.Errorf("%w: for n = %d %s counted unique %s, point_symmetric %s, rot90_symmetric %s; %s counted %s, %s, %s",
			ErrMismatch, a.N, a.Method, ua, a.point, a.rot90, b.Method, ub, b.point, b.rot90)
	}
	return nil
}

// countsOf turns the summed results of a plan's tasks into Counts: for a
// whole join plan the unique count follows from the total and the
// symmetric counts by Burnside's lemma.
func countsOf(plan *partition.Plan, sum engine.Counts, whole bool) (Counts, error) {
	c := Counts{N: plan.N, Method: Method(plan.Method), Piece: Piece(plan.Piece), Torus: plan.Torus, Placed: squaresOf(plan.Placed), Total: Uint{sum.Total}, Nodes: Uint{sum.Nodes},
		Tasks: sum.Tasks, Shards: 1}
	// The plan says what its method gives: the class counts, and whether
	// unique is summed from its tasks or derived once all are counted.
	switch {
	case !plan.Classes():
	case plan.DerivesUnique():
		c.has = hasSymmetric
		c.point, c.rot90 = Uint{sum.PointSym}, Uint{sum.Rot90Sym}
		if whole {
			u, err := burnside(plan.N, sum.Total, sum.PointSym, sum.Rot90Sym)
			if err != nil {
				return Counts{}, err
			}
			c.unique, c.has = Uint{u}, c.has|hasUnique
		}
	default:
		c.has = hasUnique | hasSymmetric
		c.unique, c.point, c.rot90 = Uint{sum.Unique}, Uint{sum.PointSym}, Uint{sum.Rot90Sym}
	}
	return c, nil
}

// burnside returns the number of classes of solutions under the 8
// symmetries of the square by Burnside's lemma: (total + point + 2·rot90)
// / 8 for n ≥ 2, where no solution is its own mirror image; for n ≤ 1 the
// one solution is fixed by every symmetry.
func burnside(n int, total, point, rot90 wide.Uint) (wide.Uint, error) {
	if n <= 1 {
		return total, nil
	}
	s := total.Add(point).Add(rot90).Add(rot90).Big()
	if s.Bit(0)|s.Bit(1)|s.Bit(2) != 0 {
		return wide.Uint{}, fmt.Errorf("%w: they break Burnside's lemma: total + point_symmetric + 2·rot90_symmetric = %s + %s + 2·%s is not a multiple of 8 (n = %d)", ErrMismatch, total, point, rot90, n)
	}
	u, _ := wide.FromBig(s.Rsh(s, 3))
	return u, nil
}

// Uint is an exact unsigned count of up to 320 bits, room for any count
// on a board of at most 64 rows (a(29) already passes 2^64, node counts
// pass it near n = 27, and 64 rooks make 64! ≈ 2^296): a value,
// comparable with ==, whose zero value is 0; fmt prints it in decimal
// with any integer verb.
type Uint struct {
	w wide.Uint
}

// String returns u in decimal.
func (u Uint) String() string { return u.w.String() }

// Format makes fmt print u as the integer it is, with every integer verb
// (%d, %v, %s, %x, %o, %b with widths and flags) as a big.Int prints it.
func (u Uint) Format(f fmt.State, verb rune) { u.w.Format(f, verb) }

// Uint64 returns u, and false if it does not fit 64 bits.
func (u Uint) Uint64() (uint64, bool) { return u.w.Uint64() }

// Big returns u as a big.Int.
func (u Uint) Big() *big.Int { return u.w.Big() }

// Float64 returns u rounded to a float64.
func (u Uint) Float64() float64 { return u.w.Float64() }

// Cmp compares u and v: -1, 0 or +1 as u is less than, equal to or
// greater than v.
func (u Uint) Cmp(v Uint) int { return u.w.Cmp(v.w) }

// Add returns u + v; past 2^320, which no count reaches, it panics.
func (u Uint) Add(v Uint) Uint { return Uint{u.w.Add(v.w)} }

// MarshalText writes u in decimal, so that encoding/json and its peers
// write a count as a string of its digits (exact past 2^53, where JSON
// numbers lose digits).
func (u Uint) MarshalText() ([]byte, error) { return []byte(u.w.String()), nil }

// UnmarshalText reads a count MarshalText wrote: decimal digits, at most
// 2^320 - 1.
func (u *Uint) UnmarshalText(text []byte) error {
	b, ok := new(big.Int).SetString(string(text), 10)
	if !ok || b.Sign() < 0 || string(text) != b.String() {
		return fmt.Errorf("%s is not a count (accepted: decimal digits, no sign)", msg.Quote(string(text)))
	}
	w, ok := wide.FromBig(b)
	if !ok {
		return fmt.Errorf("%s is not a count: it passes 320 bits", msg.Quote(string(text)))
	}
	u.w = w
	return nil
}
