package partition

import (
	"github.com/nqueens/nqueens/internal/msg"
)

// Piece is what stands on the board: n of them, one in each row and each
// column, no two attacking each other. Queen is the n-queens problem.
type Piece string

// The pieces a plan can be made for.
const (
	Queen Piece = "queen"
	// Superqueen moves as a queen and as a knight (OEIS A051223).
	Superqueen Piece = "superqueen"
	// King attacks its 8 neighbours: with one per row and column, two in
	// neighbouring rows must be more than one column apart (Hertzsprung's
	// problem, OEIS A002464); counted in closed form on every board (up
	// to 320 bits, n ≤ MaxN), by search with placed kings.
	King Piece = "king"
	// Knight attacks the squares a knight's move away.
	Knight Piece = "knight"
	// Rook attacks its row and column only: every arrangement with one
	// per row and column, n! (OEIS A000142); counted in closed form on
	// every board (64! < 2^297).
	Rook Piece = "rook"
)

// MaxSweepN is the largest board whose knights are counted by the row
// sweep (its largest row of states takes about 140 MB at n = 18); larger
// boards are searched.
const MaxSweepN = 18

// pieces lists the pieces, queen first.
var pieces = []Piece{Queen, Superqueen, King, Knight, Rook}

// pieceNames lists the pieces' names, comma-separated, for messages.
func pieceNames() string { return joinNames(pieces) }

// ParsePiece returns the piece named s; the empty name is [Queen].
func ParsePiece(s string) (Piece, error) {
	if s == "" {
		return Queen, nil
	}
	if p, ok := named(s, pieces); ok {
		return p, nil
	}
	return "", jobError("Piece", "", errPiece, "%s is not a piece (accepted: %s)", msg.Name{Of: "Piece", Value: msg.Quote(s)}, pieceNames())
}

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

// Rules returns the piece's rules, on the torus or not.
func (p Piece) Rules(torus bool) Rules {
	switch p {
	case Superqueen:
		return Rules{Long: true, Near1: 2, Near2: 1} // the knight's moves
	case King:
		return Rules{Near1: 1}
	case Knight:
		return Rules{Near1: 2, Near2: 1}
	case Rook:
		return Rules{}
	}
	return Rules{Long: true, Torus: torus}
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
	t.N1 |= near(bit, r.Near1)
	t.N2 = near(bit, r.Near2)
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

// near returns the columns b±k (none for k = 0).
func near(b uint64, k uint8) uint64 {
	if k == 0 {
		return 0
	}
	return b<<k | b>>k
}

// Rook reports whether the rules are the rooks': columns only.
func (r Rules) Rook() bool { return r == Rules{} }

// Queen reports whether the rules are the plain n-queens problem's.
func (r Rules) Queen() bool { return r == Rules{Long: true} }

// BoardName names what a count places, for messages, headers and
// tables: the piece (the empty one is the queen), and " torus" after it
// when the diagonals wrap around ("queen", "king", "queen torus").
func BoardName(p Piece, torus bool) string {
	if p == "" {
		p = Queen
	}
	if torus {
		return string(p) + " torus"
	}
	return string(p)
}
