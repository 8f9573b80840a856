package partition

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// Square is a square of the board: row 0 is the first row printed, column 0
// the first column.
type Square struct {
	Row, Col int
}

func (s Square) String() string { return fmt.Sprintf("%d:%d", s.Row, s.Col) }

// ParseSquares parses queens placed in advance: a comma-separated list of
// 0-based "row:col" pairs ("0:1,3:2") or chess squares ("b1", "c4"), where
// the letter is the column (a = 0) and the number the row counted from 1
// (a1 = row 0, column 0: the top-left corner as boards are printed).
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
	bad := fmt.Errorf("%w: %s is not a square (accepted: row:col like 0:1, or a chess square like b1)", ErrPlacement, msg.Quote(tok))
	if r, c, ok := strings.Cut(tok, ":"); ok {
		row, err1 := strconv.Atoi(r)
		col, err2 := strconv.Atoi(c)
		if err1 != nil || err2 != nil || row < 0 || col < 0 {
			return Square{}, bad
		}
		return Square{Row: row, Col: col}, nil
	}
	lower := strings.ToLower(tok)
	if len(lower) < 2 || lower[0] < 'a' || lower[0] > 'z' {
		return Square{}, bad
	}
	rank, err := strconv.Atoi(lower[1:])
	if err != nil || rank < 1 {
		return Square{}, bad
	}
	return Square{Row: rank - 1, Col: int(lower[0] - 'a')}, nil
}

// CheckPlacement returns an error naming the first problem of a placement
// on an n×n board: a square off the board, two queens on one square, row or
// column. Queens on a common diagonal are not an error: see
// [DiagonalConflict].
func CheckPlacement(n int, placed []Square) error {
	bad := func(format string, args ...any) error {
		return jobError("Placed", "", ErrPlacement, "%s: "+format, append([]any{msg.Name{Of: "Placed", Value: ""}}, args...)...)
	}
	for i, a := range placed {
		if a.Row < 0 || a.Row >= n || a.Col < 0 || a.Col >= n {
			return bad("square %s is off the %d×%d board (rows and columns 0..%d)", a, n, n, n-1)
		}
		for _, b := range placed[:i] {
			switch {
			case a == b:
				return bad("square %s is given twice", a)
			case a.Row == b.Row:
				return bad("queens %s and %s share row %d", b, a, a.Row)
			case a.Col == b.Col:
				return bad("queens %s and %s share column %d", b, a, a.Col)
			}
		}
	}
	return nil
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

// placedBans forbids every square that the placed queens rule out: in a
// placed queen's row every other square, elsewhere its column and
// diagonals.
func placedBans(n int, placed []Square, rules board.Rules) *board.Bans {
	b := new(board.Bans)
	all := below(n)
	short := func(k uint8, col int) uint64 { return board.Near(1<<uint(col), k) & all }
	for _, q := range placed {
		for r := 0; r < n; r++ {
			if r == q.Row {
				b[r] |= all &^ (1 << uint(q.Col))
				continue
			}
			d := r - q.Row
			b[r] |= 1 << uint(q.Col)
			if rules.Long {
				for _, c := range []int{q.Col + d, q.Col - d} {
					if rules.Torus {
						c = ((c % n) + n) % n
					}
					if c >= 0 && c < n {
						b[r] |= 1 << uint(c)
					}
				}
			}
			switch d {
			case 1, -1:
				b[r] |= short(rules.Near1, q.Col)
			case 2, -2:
				b[r] |= short(rules.Near2, q.Col)
			}
		}
	}
	return b
}

// mirrorSymmetric reports whether the placement is its own left-right
// mirror image. Two queens of one row cannot be mirrors of each other, so
// this means no queen at all, or one queen in the middle column of an odd
// board.
func mirrorSymmetric(n int, placed []Square) bool {
	for _, q := range placed {
		if q.Col != n-1-q.Col {
			return false
		}
	}
	return true
}

// placedSeeds plans a count of the solutions containing the placed queens:
// halved by the left-right mirror when the placement is mirror-symmetric
// and halving is allowed, every solution searched otherwise. Other
// symmetries of a placement are not used: a solution equal to its own
// image (180° rotation) would need counting apart.
func placedSeeds(n int, placed []Square, halve bool, rules board.Rules) []seed {
	bans := placedBans(n, placed, rules)
	if halve && mirrorSymmetric(n, placed) {
		seeds := mirrorSeeds(n)
		for i := range seeds {
			seeds[i].kind = board.CountBanned
			seeds[i].bans = bans
		}
		return seeds
	}
	return []seed{{kind: board.CountBanned, weight: 1, bans: bans}}
}

// canonical returns the placement sorted by row, then column: one question,
// one plan, however the queens were listed.
func canonical(placed []Square) []Square {
	out := slices.Clone(placed)
	slices.SortFunc(out, func(a, b Square) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	return out
}
