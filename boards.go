package nqueens

import (
	"context"
	"fmt"
	"iter"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// This file holds single solutions: one constructed or searched (Solve),
// all of them in order (List), and the check of a board (Verify).

// Solve returns one solution of the n×n board as the column of each row's
// queen. Without placed queens it comes from the classic explicit
// construction (construct; constructTorus with [WithTorus]), instantly
// for any n up to 10,000,000 (8 bytes a row); with [WithPlaced], and for
// other pieces ([WithPiece]), it is the first solution in lexicographic order (that
// holds the placed queens), found by search, n ≤ [MaxN]. A board without a
// solution is [ErrNoSolution].
func Solve(ctx context.Context, n int, opts ...BoardOption) ([]int, error) {
	c, err := newConfig("Solve", opts)
	if err == nil {
		err = nilContext("Solve", ctx)
	}
	if err == nil {
		err = c.mirrorOnly("Solve")
	}
	if err != nil {
		return nil, err
	}
	if len(c.placed) == 0 && c.torus && (c.piece == "" || c.piece == Queen) {
		if err := board.CheckSize(n, board.MaxSolveN); err != nil {
			return nil, invalid(err)
		}
		if cols := constructTorus(n); cols != nil {
			return cols, nil
		}
		return nil, fmt.Errorf("%w: the %d×%d queen torus board has none (only n coprime to 6 have)", ErrNoSolution, n, n)
	}
	if len(c.placed) == 0 && c.queens() {
		if err := board.CheckSize(n, board.MaxSolveN); err != nil {
			return nil, invalid(err)
		}
		if cols := construct(n); cols != nil {
			return cols, nil
		}
		return nil, fmt.Errorf("%w: the %d×%d board has none", ErrNoSolution, n, n)
	}
	for cols, err := range List(ctx, n, opts...) {
		if err != nil {
			return nil, err
		}
		return cols, nil
	}
	if len(c.placed) == 0 {
		return nil, fmt.Errorf("%w: the %d×%d %s board has none", ErrNoSolution, n, n, c.boardName())
	}
	return nil, fmt.Errorf("%w of the %d×%d board holds the placed queens", ErrNoSolution, n, n)
}

// List yields every solution of the n×n board (n ≤ [MaxN]; with
// [WithPlaced], those holding the queens; of the pieces [WithPiece] and
// [WithTorus] ask for) as the column of each row's
// queen, in lexicographic order, as the search finds them: memory stays
// flat however many there are. The slice is reused between solutions. It
// yields an error (and stops) for bad input or a cancelled context;
// breaking out of the loop stops the search.
func List(ctx context.Context, n int, opts ...BoardOption) iter.Seq2[[]int, error] {
	return func(yield func([]int, error) bool) {
		c, err := newConfig("List", opts)
		if err == nil {
			err = nilContext("List", ctx)
		}
		if err == nil {
			err = c.mirrorOnly("List")
		}
		var plan *partition.Plan
		if err == nil {
			plan, err = partition.Make(ctx, c.job(n, partition.Mirror, true))
			if err != nil && ctx.Err() != nil {
				err = context.Cause(ctx)
			} else {
				err = invalid(err)
			}
		}
		if err != nil {
			yield(nil, err)
			return
		}
		cols := make([]int, n)
		stopped := false
		for i := range plan.Tasks {
			if err := ctx.Err(); err != nil {
				yield(nil, context.Cause(ctx))
				return
			}
			err := engine.EachSolution(ctx, plan, i, func(c []uint8) bool {
				for r, v := range c {
					cols[r] = int(v)
				}
				stopped = !yield(cols, nil)
				return !stopped
			})
			if err != nil && ctx.Err() != nil {
				yield(nil, context.Cause(ctx))
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if stopped {
				return
			}
		}
	}
}

// mirrorOnly refuses a method other than the one listing uses: one search
// in order, without symmetry.
func (b *boardSpec) mirrorOnly(call string) error {
	if b.method != Auto && b.method != "" && b.method != Mirror {
		return optionError("WithMethod", "", "%s lists every solution in order with one search (the mirror method's, without halving), not with %s", call, msg.Name{Of: "WithMethod", Value: string(b.method)})
	}
	return nil
}

// construct returns a solution of the n×n board from the classic explicit
// construction (Hoffman, Loessi and Moore, 1969), or nil for n = 2 and 3
// (and n < 0). In 1-based terms: the even columns 2, 4, … then the odd
// ones 1, 3, …; when n mod 6 = 2, the odd ones run 3, 1, 7, 9, …, 5; when
// n mod 6 = 3, the even ones run 4, 6, …, 2 and the odd ones 5, 7, …, 1, 3.
func construct(n int) []int {
	switch {
	case n < 0, n == 2, n == 3:
		return nil
	case n == 0:
		return []int{}
	case n == 1:
		return []int{0}
	}
	var evens, odds []int
	for c := 2; c <= n; c += 2 {
		evens = append(evens, c)
	}
	for c := 1; c <= n; c += 2 {
		odds = append(odds, c)
	}
	switch n % 6 {
	case 2:
		// swap 1 and 3, move 5 to the end
		odds[0], odds[1] = odds[1], odds[0]
		odds = append(append(odds[:2:2], odds[3:]...), 5)
	case 3:
		// move 2 to the end of the evens, 1 and 3 to the end of the odds
		evens = append(evens[1:], 2)
		odds = append(odds[2:], 1, 3)
	}
	cols := make([]int, 0, n)
	for _, c := range append(evens, odds...) {
		cols = append(cols, c-1)
	}
	return cols
}

// constructTorus returns a solution of the n×n board with queens whose
// diagonals wrap around (the torus), or nil where there is none: queens
// exist on the torus exactly for n coprime to 6 (Pólya), and then the queen
// of row r in column 2r mod n is one (its columns 2r, and its diagonals
// r-2r and r+2r = 3r, are all different mod n when 2 and 3 are invertible).
func constructTorus(n int) []int {
	if n < 0 || n%2 == 0 && n != 0 || n%3 == 0 && n != 0 {
		return nil
	}
	cols := make([]int, n)
	for r := range cols {
		cols[r] = 2 * r % n
	}
	return cols
}

// Conflict is the first reason, reading from the top, that a board is not
// a solution: a row without a queen or with several (Second = -1), or two
// rows whose queens share a column or a diagonal.
type Conflict struct {
	First, Second int
	What          string // "has no queen", "has more than one queen", "share column 3", "share a diagonal"
}

func (c *Conflict) Error() string {
	if c.Second < 0 {
		return fmt.Sprintf("row %d %s", c.First, c.What)
	}
	return fmt.Sprintf("rows %d and %d %s", c.First, c.Second, c.What)
}

// Verify checks a board given as the column of each row's queen (-1 for a
// row without a queen, -2 for a row with several, as the command reads
// boards of text): nil for a solution, else the first [*Conflict].
// [WithPiece] and [WithTorus] check other pieces' boards; other options
// are refused.
func Verify(cols []int, opts ...VerifyOption) error {
	c, err := newConfig("Verify", opts)
	if err != nil {
		return err
	}
	n := len(cols)
	name := "queen"
	if !c.queens() && c.piece != "" {
		name = string(c.piece)
	}
	for r, c := range cols {
		switch {
		case c == -1:
			return &Conflict{First: r, Second: -1, What: "has no " + name}
		case c == -2:
			return &Conflict{First: r, Second: -1, What: "has more than one " + name}
		case c < 0 || c >= n:
			return &Conflict{First: r, Second: -1, What: fmt.Sprintf("has its %s in column %d, off the %d×%d board", name, c, n, n)}
		}
	}
	return verifyRules(cols, board.Piece(c.piece).Rules(c.torus))
}

// verifyRules is Verify's search for the first pair of rows, in row order
// (the earliest second row, then the earliest first), whose pieces share a
// column or attack each other under r, in O(n) time and 5n bits: a bit per
// column and diagonal finds the first row that conflicts with one above
// it, then a scan of the rows above finds the earliest it conflicts with.
func verifyRules(cols []int, r board.Rules) error {
	n := len(cols)
	col, d1, d2 := newBits(n), newBits(2*n), newBits(2*n)
	diags := func(row, c int) (int, int) {
		if r.Torus {
			return (row + c) % n, ((row-c)%n + n) % n
		}
		return row + c, row - c + n
	}
	near := func(row, c, p int) string {
		dc := c - cols[p]
		if dc < 0 {
			dc = -dc
		}
		var k uint8
		switch row - p {
		case 1:
			k = r.Near1
		case 2:
			k = r.Near2
		}
		if k != 0 && dc == int(k) {
			if row-p+dc == 3 {
				return "are a knight's move apart"
			}
			return "are on neighbouring squares"
		}
		return ""
	}
	for row, c := range cols {
		i, j := diags(row, c)
		hit := col.has(c) || r.Long && (d1.has(i) || d2.has(j))
		for p := max(0, row-2); p < row && !hit; p++ {
			hit = near(row, c, p) != ""
		}
		if !hit {
			col.set(c)
			if r.Long {
				d1.set(i)
				d2.set(j)
			}
			continue
		}
		for p := range row {
			pi, pj := diags(p, cols[p])
			switch {
			case cols[p] == c:
				return &Conflict{p, row, fmt.Sprintf("share column %d", c)}
			case r.Long && (pi == i || pj == j):
				return &Conflict{p, row, "share a diagonal"}
			}
			if what := near(row, c, p); what != "" {
				return &Conflict{p, row, what}
			}
		}
	}
	return nil
}

// bits is a set of small integers.
type bits []uint64

func newBits(n int) bits      { return make(bits, (n+63)/64) }
func (b bits) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func (b bits) set(i int)      { b[i/64] |= 1 << (i % 64) }
