package board

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

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

// Pieces lists the pieces, queen first.
var Pieces = []Piece{Queen, Superqueen, King, Knight, Rook}

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

// Square is a square of the board: row 0 is the first row printed, column 0
// the first column.
type Square struct {
	Row, Col int
}

func (s Square) String() string { return fmt.Sprintf("%d:%d", s.Row, s.Col) }

// Chess writes s as a chess square: its column's letters ([Column]) and
// its row counted from 1 ("b1"; "ab14" on a board past 26 columns).
func (s Square) Chess() string { return Column(s.Col) + strconv.Itoa(s.Row+1) }

// Column is the letters of column c (0-based) in a chess square: a..z,
// then aa, ab, …, az, ba, … as spreadsheets name their columns.
func Column(c int) string {
	var b []byte
	for c++; c > 0; c = (c - 1) / 26 {
		b = append(b, byte('a'+(c-1)%26))
	}
	slices.Reverse(b)
	return string(b)
}

// Span names the squares of an n×n board for messages, in the notation
// squares were typed in: "rows and columns 0..7", or "a..h, 1..8".
type Span struct {
	N     int
	Chess bool
}

func (s Span) String() string {
	if s.Chess {
		return fmt.Sprintf("a..%s, 1..%d", Column(s.N-1), s.N)
	}
	return fmt.Sprintf("rows and columns 0..%d", s.N-1)
}

// ParseSquares parses queens placed in advance: a comma-separated list of
// 0-based "row:col" pairs ("0:1,3:2") or chess squares ("b1", "c4"), where
// the letters are the column (a = 0, past z aa = 26, ab = 27, … as
// [Column] writes them) and the number the row counted from 1 (a1 = row
// 0, column 0: the top-left corner as boards are printed).
func ParseSquares(s string) ([]Square, error) {
	var out []Square
	for _, tok := range strings.Split(s, ",") {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return nil, fmt.Errorf("%w: empty square in %s (accepted: row:col pairs like 0:1, or chess squares like b1, separated by commas)", ErrPlacement, msg.Quote(s))
		}
		sq, err := parseSquare(tok)
		if err != nil {
			return nil, err
		}
		out = append(out, sq)
	}
	return out, nil
}

func parseSquare(tok string) (Square, error) {
	bad := fmt.Errorf("%w: %s is not a square (accepted: row:col like 0:1, or a chess square like b1, its column a..z, then aa, ab, …)", ErrPlacement, msg.Quote(tok))
	if r, c, ok := strings.Cut(tok, ":"); ok {
		row, err1 := strconv.Atoi(r)
		col, err2 := strconv.Atoi(c)
		if err1 != nil || err2 != nil || row < 0 || col < 0 {
			return Square{}, bad
		}
		return Square{Row: row, Col: col}, nil
	}
	lower := strings.ToLower(tok)
	letters := 0
	for letters < len(lower) && lower[letters] >= 'a' && lower[letters] <= 'z' {
		letters++
	}
	if letters == 0 || letters > 3 || letters == len(lower) || lower[letters] < '0' || lower[letters] > '9' {
		return Square{}, bad
	}
	rank, err := strconv.Atoi(lower[letters:])
	if err != nil || rank < 1 {
		return Square{}, bad
	}
	col := 0
	for _, ch := range lower[:letters] {
		col = 26*col + int(ch-'a') + 1
	}
	return Square{Row: rank - 1, Col: col - 1}, nil
}

// DiagonalConflict returns the first two placed queens that attack each
// other along a diagonal, if any: such a placement has no completion.
func DiagonalConflict(placed []Square) (a, b Square, ok bool) {
	for i, q := range placed {
		for _, p := range placed[:i] {
			if q.Row-p.Row == q.Col-p.Col || q.Row-p.Row == p.Col-q.Col {
				return p, q, true
			}
		}
	}
	return Square{}, Square{}, false
}

// PlacedString writes placed queens as ParseSquares reads them, or "-" for
// none.
func PlacedString(placed []Square) string {
	if len(placed) == 0 {
		return "-"
	}
	parts := make([]string, len(placed))
	for i, q := range placed {
		parts[i] = q.String()
	}
	return strings.Join(parts, ",")
}

// CheckSize returns nil when n is a board size up to largest (0 ≤ n ≤
// largest), else [ErrSize] saying what is accepted: the one rule every
// caller checks a board size by ([MaxN] for counts, [MaxSolveN] for Solve;
// the command's arguments too), with [SizeAccepted]'s words.
func CheckSize(n, largest int) error {
	if n < 0 || n > largest {
		return fmt.Errorf("%w: %d (accepted: %s)", ErrSize, n, SizeAccepted(largest))
	}
	return nil
}

// SizeAccepted says which board sizes up to largest are accepted:
// "0..largest".
func SizeAccepted(largest int) string { return fmt.Sprintf("0..%d", largest) }

// MaxSolveN is the largest board nqueens.Solve constructs (queens, no
// placed ones): the columns of a board take 8 bytes a row.
const MaxSolveN = 10_000_000

// Errors wrapped by the board's checks and parsers.
var (
	ErrSize      = errors.New("board size out of range")
	ErrPlacement = errors.New("bad placement")
)
