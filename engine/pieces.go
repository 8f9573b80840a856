package engine

import (
	"fmt"
	"math/big"
	"math/bits"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/wide"
)

func factorialTimes(k int, w uint64) wide.Uint {
	u := wide.Of(w)
	for i := 2; i <= k; i++ {
		u = u.Mul64(uint64(i))
	}
	return u
}

// kings returns A002464(n), the kings' total (Hertzsprung's problem: n
// kings one per row and column, none on neighbouring squares), by its
// recurrence a(n) = (n+1)a(n-1) − (n−2)a(n−2) − (n−5)a(n−3) + (n−3)a(n−4),
// a(0..3) = 1, 1, 0, 0 (n ≤ 64: below 64! < 2^297).
func kings(n int) wide.Uint {
	a := [4]*big.Int{big.NewInt(1), big.NewInt(1), big.NewInt(0), big.NewInt(0)} // a(k-4..k-1) once k ≥ 4
	if n < 4 {
		return wide.Of(a[n].Uint64())
	}
	t, u := new(big.Int), new(big.Int)
	for k := 4; k <= n; k++ {
		next := new(big.Int).Mul(big.NewInt(int64(k+1)), a[3])
		next.Sub(next, t.Mul(big.NewInt(int64(k-2)), a[2]))
		next.Sub(next, t.Mul(big.NewInt(int64(k-5)), a[1]))
		next.Add(next, u.Mul(big.NewInt(int64(k-3)), a[0]))
		a = [4]*big.Int{a[1], a[2], a[3], next}
	}
	v, ok := wide.FromBig(a[3])
	if !ok {
		panic(fmt.Sprintf("A002464(%d) does not fit in %d bits", n, 64*wide.Words))
	}
	return v
}

// sweepRows counts the n×n board of pieces whose moves reach the next two
// rows only (rules r without Long: knights) by a sweep over the rows: for
// every set of columns used so far it keeps, per column of the last row
// and of the row before it, how many ways lead there, since those decide
// every later row. Row by row, each state passes its ways to the states
// of the free columns the last two rows do not attack. The counts fit in
// 64 bits up to board.MaxSweepN (at most n! ways).
func sweepRows(n int, r board.Rules) uint64 {
	if n == 0 {
		return 1
	}
	all := uint32(1)<<uint(n) - 1
	w := n + 1 // a row's column, or n for none (the rows above the board)
	block := w * w
	type layer struct {
		sets []uint32
		ways []uint64 // per set, block entries: [last row's column][the one before]
	}
	cur := layer{sets: []uint32{0}, ways: make([]uint64, block)}
	cur.ways[n*w+n] = 1
	// slot[set] is 1 + the set's block in the next layer (0: not there
	// yet): an array over every set of columns (2^n, 1 MB at n = 18)
	// instead of a map, reset after each row by the sets it holds.
	slot := make([]int32, 1<<uint(n))
	for row := 0; row < n; row++ {
		// The next row's sets are at most C(n, row+1): its arrays are
		// made once, so the memory is what SweepBytes says.
		most := int(new(big.Int).Binomial(int64(n), int64(row+1)).Int64())
		next := layer{sets: make([]uint32, 0, most), ways: make([]uint64, 0, most*block)}
		for i, set := range cur.sets {
			ways := cur.ways[i*block : (i+1)*block]
			for a := 0; a <= n; a++ {
				for b := 0; b <= n; b++ {
					v := ways[a*w+b]
					if v == 0 {
						continue
					}
					taken := uint64(set)
					if a < n {
						taken |= near(1<<a, r.Near1)
					}
					if b < n {
						taken |= near(1<<b, r.Near2)
					}
					for free := ^uint32(taken) & all; free != 0; free &= free - 1 {
						x := bits.TrailingZeros32(free)
						s := set | 1<<x
						k := int(slot[s&all]) - 1
						if k < 0 {
							k = len(next.sets)
							slot[s&all] = int32(k + 1)
							next.sets = append(next.sets, s)
							next.ways = append(next.ways, make([]uint64, block)...)
						}
						next.ways[k*block+x*w+a] += v
					}
				}
			}
		}
		for _, s := range next.sets {
			slot[s&all] = 0
		}
		cur = next
	}
	var total uint64
	for _, v := range cur.ways {
		total += v
	}
	return total
}

// near returns the columns b±k of a row (none for k = 0).
func near(b uint64, k uint8) uint64 {
	if k == 0 {
		return 0
	}
	return b<<k | b>>k
}

// walkTorus is walkPieces for queens on the torus (the one board the torus
// takes, and the one walkShort leaves out): the same search, counting and
// nodes, with each level's columns and wrapped diagonals in arrays indexed
// by the depth, no short moves (queens have none) and no branch on the
// rules. r is the torus queen's (its rules are not read).
func walkTorus(n int, _ board.Rules, ban *board.Bans, a board.Attacks, row int) (sols, nodes uint64) {
	switch {
	case row >= n:
		return 1, 0
	case row == n-1:
		return uint64(bits.OnesCount64(a.Free() &^ ban[row&63])), 0
	}
	all := uint64(1)<<uint(n) - 1
	wrap := uint(n - 1)
	var cols, ld, rd, frees [maxRows]uint64
	cols[0], ld[0], rd[0] = a.Cols, a.LD, a.RD
	frees[0] = a.Free() &^ ban[row&63]
	last := n - 1 - row // the level whose row is the last
	for d := 0; d >= 0; {
		f := frees[d&63]
		if f == 0 {
			d--
			continue
		}
		b := f & -f
		frees[d&63] = f ^ b
		nodes++
		c := cols[d&63] | b
		l := ld[d&63] | b
		l = (l<<1 | l>>wrap) & all
		r := rd[d&63] | b
		r = r>>1 | (r&1)<<wrap
		free := ^(c | l | r) &^ ban[(row+d+1)&63]
		switch {
		case d+1 == last:
			sols += uint64(bits.OnesCount64(free))
			continue
		case free == 0:
			continue
		case d+2 == last:
			// Two rows left: each free square of the next row completes
			// a board with every square of the last row it leaves free.
			lastBan := ban[(row+d+2)&63]
			for g := free; g != 0; g &= g - 1 {
				x := g & -g
				nodes++
				l2 := l | x
				l2 = (l2<<1 | l2>>wrap) & all
				r2 := r | x
				r2 = r2>>1 | (r2&1)<<wrap
				sols += uint64(bits.OnesCount64(^(c | x | l2 | r2) &^ lastBan))
			}
			continue
		}
		d++
		cols[d&63], ld[d&63], rd[d&63], frees[d&63] = c, l, r, free
	}
	return sols, nodes
}

// walkShort is walkPieces for boards without the torus (superqueens,
// kings, knights, rooks' search): the same search, pruning and nodes, with
// the state of each level in arrays indexed by the depth, as walkGo keeps
// the queens', instead of a record copied per level; about twice as fast.
// walkPieces is its twin: the tests check them task by task. (Folding the
// torus's rotations in here, with a branch or without one, made
// superqueens 15-25% slower, so the torus has a kernel of its own,
// walkTorus.)
func walkShort(n int, r board.Rules, ban *board.Bans, a board.Attacks, row int) (sols, nodes uint64) {
	switch {
	case row >= n:
		return 1, 0
	case row == n-1:
		return uint64(bits.OnesCount64(a.Free() &^ ban[row&63])), 0
	}
	s1, s2 := r.Near1, r.Near2
	long := uint64(0)
	if r.Long {
		long = full
	}
	var cols, ld, rd, n2, rest [maxRows + 2]uint64
	last := n - 1 - row // the level whose row is the last
	d := 0
	cols[0], ld[0], rd[0], n2[0] = a.Cols, a.LD, a.RD, a.N2
	free := a.Free() &^ ban[row&63]
	for d >= 0 {
		i := d & 63
		c, l, rr, m2 := cols[i], ld[i], rd[i], n2[i]
		rowNext := row + d + 1
		banNext, banAfter := ban[rowNext&63], ban[(rowNext+1)&63]
		for free != 0 {
			b := free & -free
			free ^= b
			nodes++
			nc := c | b
			nl := (l | b) << 1 & long
			nr := (rr | b) >> 1 & long
			nn1 := m2 | b<<s1 | b>>s1
			nn2 := b<<s2 | b>>s2
			f := ^(nc | nl | nr | nn1) &^ banNext
			switch {
			case d+1 == last:
				sols += uint64(bits.OnesCount64(f))
				continue
			case f == 0:
				continue
			case d+2 == last:
				for g := f; g != 0; g &= g - 1 {
					x := g & -g
					nodes++
					t := nc | x | (nl|x)<<1&long | (nr|x)>>1&long | nn2 | x<<s1 | x>>s1
					sols += uint64(bits.OnesCount64(^t &^ banAfter))
				}
				continue
			case nc|nl<<1&long|nr>>1&long|nn2|banAfter == full:
				continue
			}
			rest[(d+1)&63] = free
			d++
			i = d & 63
			cols[i], ld[i], rd[i], n2[i] = nc, nl, nr, nn2
			c, l, rr, m2 = nc, nl, nr, nn2
			rowNext++
			banNext, banAfter = ban[rowNext&63], ban[(rowNext+1)&63]
			free = f
		}
		free = rest[d&63]
		d--
	}
	return sols, nodes
}
