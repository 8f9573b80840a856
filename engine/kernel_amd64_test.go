//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
)

// TestWalkTwin checks the assembly backtracking kernel against its Go twin,
// solutions and nodes: from every start with three rows or more left for
// n ≤ 10, and from random deep starts on boards up to 64 columns (where
// the masks' top bits are columns).
func TestWalkTwin(t *testing.T) {
	if !hasBMI {
		t.Skip("this CPU lacks BMI1, BMI2 or POPCNT")
	}
	deep := 0 // searches on boards of 48 columns or more
	check := func(n int, s start) {
		var st [maxRows + 2][4]uint64
		free := ^s.Cols
		f2 := free & (free - 1)
		below := ^(s.Cols | s.LD<<1 | s.RD>>1)
		if f2&(f2-1) == 0 || below == 0 {
			return // walk answers these itself
		}
		if !rotationSafe(s) {
			return // walk runs the Go kernel there
		}
		posib := s.Cols | s.LD | s.RD | doomed(below)
		ws, wn := walkGo(s, posib)
		gs, gn := walkBMI(&st, s.Cols, s.LD, s.RD, posib)
		require.Equal(t, [2]uint64{ws, wn}, [2]uint64{gs, gn}, "n=%d start %+v", n, s)
		if n >= 48 && wn > 0 {
			deep++
		}
	}
	for n := 1; n <= 10; n++ {
		var visit func(s start)
		visit = func(s start) {
			check(n, s)
			free := ^(s.Cols | s.LD | s.RD)
			for c := 0; c < n; c++ {
				if free&(1<<c) != 0 {
					visit(s.place(1 << c))
				}
			}
		}
		visit(emptyStart(n))
	}
	r := rand.New(rand.NewPCG(1, 2))
	// Boards of up to 52 columns with 12 rows left always fit (52+12 ≤ 64).
	for _, n := range []int{20, 31, 32, 33, 40, 48, 52} {
		for tries := 0; tries < 100; tries++ {
			check(n, deepStart(r, n, 12))
		}
	}
	assert.Greater(t, deep, 100, "deep starts on large boards searched")
}

// TestBannedLayout checks the offsets nextBMI reads bannedSearch at
// (engine/_gen/walk.go).
func TestBannedLayout(t *testing.T) {
	var bs bannedSearch
	assert.Equal(t, []uintptr{0, 64, 0, 8, 16, 24, 32, 66 * 64, 66*64 + 512, 66*64 + 1024, 66*64 + 1032, 66*64 + 1040},
		[]uintptr{unsafe.Offsetof(bs.lv), unsafe.Sizeof(bs.lv[0]), unsafe.Offsetof(bs.lv[0].cols), unsafe.Offsetof(bs.lv[0].dls),
			unsafe.Offsetof(bs.lv[0].drs), unsafe.Offsetof(bs.lv[0].rest), unsafe.Offsetof(bs.lv[0].row), unsafe.Offsetof(bs.ban),
			unsafe.Offsetof(bs.board), unsafe.Offsetof(bs.d), unsafe.Offsetof(bs.posib), unsafe.Offsetof(bs.nodes)})
}

// TestBannedTwin runs the banned search with the assembly kernel and with
// its Go twin from every start of boards up to n = 10, under random bans,
// and checks that they stop at the same completions, in the same order,
// with the same nodes; and from random deep starts on boards up to 64
// columns.
func TestBannedTwin(t *testing.T) {
	if !hasBMI {
		t.Skip("this CPU lacks BMI1, BMI2 or POPCNT")
	}
	r := rand.New(rand.NewPCG(3, 4))
	deep, searched := 0, 0
	check := func(n int, s start, ban *board.Bans) {
		var a, b bannedSearch
		a.init(n, ban)
		row := uint64(s.Row)
		below := ^(s.Cols | s.LD<<1 | s.RD>>1 | a.ban[(row+1)&63])
		if f := ^s.Cols; f&(f-1) == 0 || below == 0 {
			return // walkBanned answers these itself
		}
		if !rotationSafe(s) {
			return // walkBanned runs the Go kernel there
		}
		a.d, a.posib = 1, s.Cols|s.LD|s.RD|a.ban[row&63]|doomed(below)
		a.lv[1] = bannedLevel{cols: s.Cols, dls: s.LD << 1, drs: s.RD >> 1, row: row}
		b = a
		for {
			ga, gb := a.nextGo(), nextBMI(&b.lv[0].cols)
			require.Equal(t, ga, gb, "n=%d start %+v", n, s)
			require.Equal(t, a.board, b.board, "n=%d start %+v", n, s)
			require.Equal(t, [3]uint64{uint64(a.d), a.posib, a.nodes}, [3]uint64{uint64(b.d), b.posib, b.nodes}, "n=%d start %+v", n, s)
			if !ga {
				if n > 10 {
					deep++
					if a.nodes > 0 {
						searched++
					}
				}
				return
			}
		}
	}
	randomBans := func(n int) *board.Bans {
		ban := new(board.Bans)
		for row := range n {
			if r.IntN(3) == 0 {
				ban[row] = r.Uint64() & r.Uint64() & (1<<n - 1)
			}
		}
		return ban
	}
	for n := 1; n <= 10; n++ {
		ban := randomBans(n)
		var visit func(s start)
		visit = func(s start) {
			check(n, s, ban)
			check(n, s, new(board.Bans))
			free := ^(s.Cols | s.LD | s.RD)
			for c := 0; c < n; c++ {
				if free&(1<<c) != 0 {
					visit(s.place(1 << c))
				}
			}
		}
		visit(emptyStart(n))
	}
	for _, n := range []int{20, 32, 40, 48, 52} {
		for range 100 {
			check(n, deepStart(r, n, 12), randomBans(n))
		}
	}
	assert.Greater(t, searched, deep/2, "most deep starts have something to search")
}

// deepStart returns a start of an n×n board with rows rows left: queens
// placed from row 0, each in a random free column, backtracking from dead
// ends (the last start reached when a budget of placements runs out).
func deepStart(r *rand.Rand, n, rows int) start {
	budget := 20000
	var found start
	var rec func(s start) bool
	rec = func(s start) bool {
		found = s
		if s.Row >= n-rows {
			return true
		}
		free := ^(s.Cols | s.LD | s.RD)
		var cs []int
		for c := 0; c < n; c++ {
			if free&(1<<c) != 0 {
				cs = append(cs, c)
			}
		}
		r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
		for _, c := range cs {
			if budget--; budget < 0 {
				return false
			}
			if rec(s.place(1 << c)) {
				return true
			}
		}
		return false
	}
	rec(emptyStart(n))
	return found
}
