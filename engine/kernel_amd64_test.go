//go:build amd64 && !purego

package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWalkTwin checks the assembly backtracking kernel against its Go twin,
// solutions and nodes: from every start with three rows or more left for
// n ≤ 10, and from random deep starts on boards up to 64 columns (where
// the masks' top bits are columns).
func TestWalkTwin(t *testing.T) {
	if !hasBMI {
		t.Skip("this CPU lacks BMI1, BMI2 or POPCNT")
	}
	check := func(n int, s start) {
		var st [maxRows + 2][4]uint64
		free := ^s.Cols
		f2 := free & (free - 1)
		below := ^(s.Cols | s.LD<<1 | s.RD>>1)
		if f2&(f2-1) == 0 || below == 0 {
			return // walk answers these itself
		}
		posib := s.Cols | s.LD | s.RD | doomed(below)
		ws, wn := walkGo(s, posib)
		gs, gn := walkBMI(&st, s.Cols, s.LD, s.RD, posib)
		require.Equal(t, [2]uint64{ws, wn}, [2]uint64{gs, gn}, "n=%d start %+v", n, s)
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
	for _, n := range []int{20, 31, 32, 33, 48, 62, 63, 64} {
		for tries := 0; tries < 200; tries++ {
			s := emptyStart(n)
			for s.Row < n-12 {
				free := ^(s.Cols | s.LD | s.RD)
				if free == 0 {
					break
				}
				var cs []int
				for c := 0; c < n; c++ {
					if free&(1<<c) != 0 {
						cs = append(cs, c)
					}
				}
				s = s.place(1 << cs[r.IntN(len(cs))])
			}
			check(n, s)
		}
	}
}
