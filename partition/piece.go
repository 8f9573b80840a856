package partition

import (
	"github.com/nqueens/nqueens/internal/board"
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

// Rules returns the piece's rules, on the torus or not.
func (p Piece) Rules(torus bool) board.Rules {
	switch p {
	case Superqueen:
		return board.Rules{Long: true, Near1: 2, Near2: 1} // the knight's moves
	case King:
		return board.Rules{Near1: 1}
	case Knight:
		return board.Rules{Near1: 2, Near2: 1}
	case Rook:
		return board.Rules{}
	}
	return board.Rules{Long: true, Torus: torus}
}

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
