package partition

import (
	"cmp"
	"slices"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// CheckPlacement returns an error naming the first problem of a placement
// on an n×n board: a square off the board, two queens on one square, row or
// column. Queens on a common diagonal are not an error: see
// [DiagonalConflict].
func CheckPlacement(n int, placed []Square) error {
	bad := func(format string, args ...any) error {
		return jobError("Placed", "", board.ErrPlacement, "%s: "+format, append([]any{msg.Name{Of: "Placed", Value: ""}}, args...)...)
	}
	for i, a := range placed {
		if a.Row < 0 || a.Row >= n || a.Col < 0 || a.Col >= n {
			return bad("square %s is off the %d×%d board (%s)", a, n, n, board.Span{N: n})
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

// placedBans forbids every square that the placed queens rule out: in a
// placed queen's row every other square, elsewhere its column and
// diagonals.
func placedBans(n int, placed []board.Square, rules board.Rules) *board.Bans {
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
func mirrorSymmetric(n int, placed []board.Square) bool {
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
func placedSeeds(n int, placed []board.Square, halve bool, rules board.Rules) []seed {
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
func canonical(placed []board.Square) []board.Square {
	out := slices.Clone(placed)
	slices.SortFunc(out, func(a, b board.Square) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) })
	return out
}
