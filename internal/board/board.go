// Package board is the vocabulary the planner (partition) and the engine
// share below the library: the rules by which pieces attack, row by row,
// the kinds of task a plan holds, the squares a method bans, and the
// join's geometry (which columns its halves and middle queens take).
package board

import "math/bits"

// MaxN is the largest board a plan describes: the engine's masks are 64
// bits wide.
const MaxN = 64

// MaxSweepN is the largest board whose knights are counted by the row
// sweep (its largest row of states takes about 140 MB at n = 18); larger
// boards are searched.
const MaxSweepN = 18

// Rules are a board's attacks as the kernels apply them row by row, with
// the engine's masks (bit c = column c, set = taken): a piece in column b
// takes b in every row below (the columns), b±d in the row d below for
// every d when Long (a queen's diagonals, which wrap around the n columns
// when Torus), b±Near1 in the next row and b±Near2 in the row after it
// (the short moves; 0: none).
type Rules struct {
	Long, Torus  bool
	Near1, Near2 uint8
}

// Attacks is what the pieces placed so far take from the rows below, in
// the engine's masks: the columns (with every bit at or past n set), both
// diagonals for the next row (Long rules) and the short moves into the next
// row (N1) and the one after it (N2).
type Attacks struct {
	Cols, LD, RD, N1, N2 uint64
}

// Start returns the attacks of an empty n×n board.
func (r Rules) Start(n int) Attacks { return Attacks{Cols: ^(uint64(1)<<uint(n) - 1)} }

// Place returns the attacks on the next row after a piece on bit of this
// one.
func (r Rules) Place(n int, a Attacks, bit uint64) Attacks {
	t := Attacks{Cols: a.Cols | bit, N1: a.N2}
	t.N1 |= Near(bit, r.Near1)
	t.N2 = Near(bit, r.Near2)
	if r.Long {
		ld, rd := a.LD|bit, a.RD|bit
		if r.Torus {
			all := uint64(1)<<uint(n) - 1
			t.LD = (ld<<1 | ld>>uint(n-1)) & all
			t.RD = rd>>1 | (rd&1)<<uint(n-1)
		} else {
			t.LD, t.RD = ld<<1, rd>>1
		}
	}
	return t
}

// After returns the attacks on the row below a prefix: the columns of
// the pieces of rows 0..len(prefix)-1, placed from an empty board.
func (r Rules) After(n int, prefix []uint8) Attacks {
	a := r.Start(n)
	for _, c := range prefix {
		a = r.Place(n, a, 1<<c)
	}
	return a
}

// Free returns the squares of the row no piece above attacks.
func (a Attacks) Free() uint64 { return ^(a.Cols | a.LD | a.RD | a.N1) }

// Near returns the columns b±k (none for k = 0).
func Near(b uint64, k uint8) uint64 {
	if k == 0 {
		return 0
	}
	return b<<k | b>>k
}

// Rook reports whether the rules are the rooks': columns only.
func (r Rules) Rook() bool { return r == Rules{} }

// Queen reports whether the rules are the plain n-queens problem's.
func (r Rules) Queen() bool { return r == Rules{Long: true} }

// Kind tells the engine which kernel a task needs.
type Kind uint8

const (
	// Count tasks count completions; each one stands for Weight solutions.
	// They have no bans.
	Count Kind = iota
	// Classify tasks compare every completion with its images under the 8
	// symmetries: only the least image of a class is counted, weighted by
	// the size of its class (8, 4 or 2). Weight is 1.
	Classify
	// CountBanned tasks count completions that avoid Bans (queens placed
	// in advance); each stands for Weight solutions.
	CountBanned
	// Halves tasks count the pairs of west and east halves of the board
	// that make a solution, for one set of east rows (Rows) and, for odd
	// n, one row of the middle column's queen (Middle); each pair stands
	// for Weight solutions.
	Halves
	// PointSymmetric and Rot90Symmetric tasks count the solutions equal to
	// their 180° (respectively 90°) rotation whose row-0 queen is in
	// column Prefix[0] (no prefix for n = 0). The join method counts them
	// beside its total, which gives the unique count by Burnside's lemma.
	PointSymmetric
	Rot90Symmetric
	// CountPieces tasks count completions under the plan's [Rules] (pieces
	// other than the queen, or the torus); each stands for Weight
	// solutions. They have no bans.
	CountPieces
	// Formula is the whole board in closed form, one task without a
	// prefix: kings by the recurrence of OEIS A002464 (Hertzsprung's
	// problem), exact in microseconds for every n (totals up to 320 bits).
	Formula
	// Sweep is the whole board, one task without a prefix, counted by a
	// sweep over the rows that keeps, for each set of columns used and the
	// columns of the last two rows, how many ways lead there: knights,
	// whose moves reach two rows down only, up to [MaxSweepN].
	Sweep
)

// Bans lists, per row, the squares a method forbids there (bit c = column c).
type Bans [MaxN]uint64

// JoinLongFrom is the least even board on which the join weights its
// pairs by their long-diagonal queens (engine/match.go, longBits): the
// two transpositions of the square count for it, and the pairs in which
// both halves hold a long-diagonal queen are never matched. Below it the
// sieve that the weights need costs more than it saves. A weighted task
// counts another share of the total than an unweighted one (only the
// plan's sum is the same), so the plans it applies to have fingerprints
// of their own.
const JoinLongFrom = 18

// JoinLongOddFrom is the least odd board the join weights so. The
// weights hold on odd boards as on even ones: the transpositions keep
// the centre, where the middle column meets both long diagonals, and a
// middle queen elsewhere is on neither. They start past n = 23 so that
// the plans of n ≤ 23, whose counts are kept (bench/data/n23, 128
// shards), keep their fingerprints: a campaign already counted or under
// way is never orphaned by a saving of minutes.
const JoinLongOddFrom = 25

// JoinLong tells whether the join weights an n×n board's pairs by their
// long-diagonal queens: even n from JoinLongFrom on, with two middle
// columns between the halves too (a middle queen on a long diagonal is
// fixed with its way, and the transpositions keep it in the middle), and
// odd n from JoinLongOddFrom on.
func JoinLong(n int) bool {
	if n%2 == 1 {
		return n >= JoinLongOddFrom
	}
	return n >= JoinLongFrom
}

// JoinMiddle returns how many middle columns part the join's west and
// east halves of an n×n board: 1 for odd n, 0 for even n below 28, and 2
// for even n from 28 on. Halves of h columns hold a pair of half-boards
// that share no diagonal with chance about 2^-h·h/2; each middle queen,
// fixed before the halves are listed, takes two diagonals from both
// halves' lists at once, so that each pair is likelier to be a solution.
// With none, the n = 28 join compared about 4 times as many pairs per
// solution as n = 27's (5 times as many at n = 14 against 2 middle
// columns: 499 pairs per solution against 78, n = 13 and 15 with one:
// 112 and 276), and cost 2.1 times as much per solution.
func JoinMiddle(n int) int {
	switch {
	case n%2 == 1:
		return 1
	case n >= joinTwoFrom:
		return 2
	}
	return 0
}

// JoinSide returns the columns of each of the join's halves of an n×n
// board: the west half takes columns 0..h-1, the east half n-h..n-1.
func JoinSide(n int) int { return (n - JoinMiddle(n)) / 2 }

// JoinPairs calls f with the middle queens' rows of each way an even
// n×n board with two middle columns (JoinMiddle) completes task east: a
// is the row of the queen in column h, b the row of the queen in column
// h+1 (h = JoinSide(n)), the west half takes the other rows, and weight
// is how many solutions each of its half-board pairs stands for.
//
// The maps that keep the cut are the mirror (west and east change places,
// and so do the middle columns: (E, W, a, b) to (W, E, b, a)) and the
// up-down flip (every row r to n-1-r). Each orbit of ways is counted
// once, in the one of its members with a < b and a + b < n-1, weight 4;
// where a + b = n-1 two members qualify, (E, W, a, b) and (rev W, rev E,
// a, b): the one with the smaller east rows counts for both (weight 4),
// and one that is both (E = rev W) for the two it stands for (weight 2).
// The middle queens must not attack each other: b ≥ a+2. Every task
// (every set of h east rows) has ways of both kinds, so the plan's tasks
// are the C(n, h) sets of east rows, with no weight of their own.
func JoinPairs(n int, east uint64, f func(a, b int, weight uint64)) {
	all := below(n)
	rest := all &^ east
	for x := rest; x != 0; x &= x - 1 {
		a := bits.TrailingZeros64(x)
		for y := rest &^ below(a+2) &^ ^below(n-a); y != 0; y &= y - 1 {
			b := bits.TrailingZeros64(y)
			w := uint64(4)
			if a+b == n-1 {
				switch rw := reverse(rest&^(1<<uint(a)|1<<uint(b)), n); {
				case east == rw:
					w = 2
				case east > rw:
					continue
				}
			}
			f(a, b, w)
		}
	}
}

// below returns the mask of bits 0..k-1.
func below(k int) uint64 { return uint64(1)<<uint(k) - 1 }

// reverse flips the n-row set rows top to bottom.
func reverse(rows uint64, n int) uint64 {
	return bits.Reverse64(rows) >> uint(64-n)
}
