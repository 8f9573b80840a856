package partition_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/partition"
)

func prefix(t partition.Task) []int {
	p := make([]int, len(t.Prefix))
	for i, c := range t.Prefix {
		p[i] = int(c)
	}
	return p
}

// TestMirrorWeights checks the mirror plan against a count without any
// symmetry: the weighted sum of its tasks' completions, each counted by the
// slow reference, is the number of solutions.
func TestMirrorWeights(t *testing.T) {
	for n := 0; n <= 12; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror})
			require.NoError(t, err)
			var sum uint64
			for _, task := range p.Tasks {
				assert.Equal(t, board.Count, task.Kind)
				sum += task.Weight * reference.CountPrefix(n, prefix(task))
			}
			assert.Equal(t, reference.Count(n), sum, "weighted sum of tasks for n=%d", n)
		})
	}
}

// TestSymCorner checks the corner tasks of the sym plan: their completions
// are the corner classes, 8 solutions each, so 8 times their number is the
// number of solutions with a queen in a corner.
func TestSymCorner(t *testing.T) {
	for n := 4; n <= 11; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Sym})
			require.NoError(t, err)
			var classes uint64
			for _, task := range p.Tasks {
				if task.Prefix[0] != 0 {
					continue
				}
				assert.Equal(t, board.Classify, task.Kind)
				reference.Completions(n, prefix(task), func(s []int) bool {
					for r, c := range s {
						if task.Bans[r]&(1<<c) != 0 {
							return true
						}
					}
					classes++
					return true
				})
			}
			var corner uint64
			reference.Solutions(n, func(s []int) bool {
				if s[0] == 0 || s[0] == n-1 || s[n-1] == 0 || s[n-1] == n-1 {
					corner++
				}
				return true
			})
			assert.Equal(t, corner, 8*classes)
		})
	}
}

func TestPlanDeterministic(t *testing.T) {
	for _, m := range partition.Methods {
		for _, n := range []int{0, 1, 2, 5, 8, 13, 16} {
			a, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			b, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			assert.Equal(t, a, b, "%s n=%d", m, n)
			ids := map[string]bool{}
			for _, task := range a.Tasks {
				assert.False(t, ids[task.ID], "duplicate task ID %q", task.ID)
				ids[task.ID] = true
				assert.Positive(t, task.Cost)
				assert.Positive(t, task.Weight)
			}
		}
	}
}

// TestPlanSize checks that mid-size boards give far more tasks than any
// likely worker count, so that dynamic scheduling balances the load: at
// least 2048 for the backtracking methods, and for join (whose tasks are
// the row splits, C(n, n/2)/4 for even n) 50 for each of 16 workers.
func TestPlanSize(t *testing.T) {
	for _, m := range partition.Methods {
		for n := 14; n <= 18; n++ {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			want := 2048
			if m == partition.Join {
				want = 800
			}
			assert.GreaterOrEqual(t, len(p.Tasks), want, "%s n=%d: %d tasks", m, n, len(p.Tasks))
		}
	}
}

func TestMakeErrors(t *testing.T) {
	_, err := partition.Make(context.Background(), partition.Job{N: -1, Method: partition.Sym})
	assert.ErrorIs(t, err, board.ErrSize)
	_, err = partition.Make(context.Background(), partition.Job{N: partition.MaxN + 1, Method: partition.Mirror})
	assert.ErrorIs(t, err, board.ErrSize)
	_, err = partition.Make(context.Background(), partition.Job{N: 8, Method: "fast"})
	assert.ErrorIs(t, err, partition.ErrMethod)
	_, err = partition.ParseMethod("fast")
	assert.ErrorIs(t, err, partition.ErrMethod)
	m, err := partition.ParseMethod("mirror")
	assert.NoError(t, err)
	assert.Equal(t, partition.Mirror, m)
}

func TestTaskIDs(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 0, Method: partition.Mirror})
	require.NoError(t, err)
	require.Len(t, p.Tasks, 1)
	assert.Equal(t, "root", p.Tasks[0].ID)
	p, err = partition.Make(context.Background(), partition.Job{N: 8, Method: partition.Mirror})
	require.NoError(t, err)
	assert.Equal(t, "0.2", p.Tasks[0].ID)
}

// TestPlanBounded checks that large boards get plans that fit in memory:
// at most 4M tasks (the level past it is skipped), at least a few hundred
// thousand for the n where counts take days.
func TestPlanBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("plans n = 22 and 24")
	}
	boards := []int{22}
	if long.Run() {
		boards = append(boards, 24) // 7 of the 9 s
	}
	for _, n := range boards {
		for _, m := range partition.Methods {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			assert.LessOrEqual(t, len(p.Tasks), 1<<22, "%s n=%d", m, n)
			assert.GreaterOrEqual(t, len(p.Tasks), 100_000, "%s n=%d", m, n)
		}
	}
}

// TestJoinOrbits checks the join plan's symmetry: every split of the rows
// (east rows E, and for odd n the middle column's queen's row a) is counted
// by exactly one task, weighted by how many splits it stands for, and the
// splits a task stands for have as many solutions as its own (counted by
// sorting every solution of the slow reference by its split).
func TestJoinOrbits(t *testing.T) {
	for n := 0; n <= 10; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
			require.NoError(t, err)
			h := n / 2
			type split struct {
				mid  int
				east uint64
			}
			count := map[split]uint64{}
			reference.Solutions(n, func(s []int) bool {
				sp := split{mid: -1}
				for r, c := range s {
					switch {
					case n%2 == 1 && c == h:
						sp.mid = r
					case c >= n-h:
						sp.east |= 1 << uint(r)
					}
				}
				count[sp]++
				return true
			})
			var weights, total uint64
			symmetric := 0
			for _, task := range p.Tasks {
				if task.Kind == board.PointSymmetric || task.Kind == board.Rot90Symmetric {
					symmetric++ // counted by engine's tests
					continue
				}
				assert.Equal(t, board.Halves, task.Kind)
				sp := split{mid: int(task.Middle), east: task.Rows}
				weights += task.Weight
				total += task.Weight * count[sp]
				// The task's images under the mirror and the flip.
				rows := uint64(1)<<uint(n) - 1
				if sp.mid >= 0 {
					rows &^= 1 << uint(sp.mid)
				}
				flip := func(x uint64) uint64 {
					var y uint64
					for r := 0; r < n; r++ {
						if x>>uint(r)&1 != 0 {
							y |= 1 << uint(n-1-r)
						}
					}
					return y
				}
				assert.Equal(t, count[sp], count[split{sp.mid, rows &^ sp.east}], "mirror of %+v", sp)
				fm := sp.mid
				if fm >= 0 {
					fm = n - 1 - fm
				}
				assert.Equal(t, count[sp], count[split{fm, flip(sp.east)}], "flip of %+v", sp)
			}
			splits := binomial(n, h) // even n: the east rows
			if n%2 == 1 {
				splits = uint64(n) * binomial(n-1, h) // the middle row, then the east rows
			}
			assert.Equal(t, splits, weights, "splits covered")
			assert.Equal(t, max(2*n, 2), symmetric, "a point and a rot90 task per row-0 column")
			assert.Equal(t, reference.Count(n), total, "weighted total")
		})
	}
}

func binomial(n, k int) uint64 {
	b := uint64(1)
	for i := 1; i <= k; i++ {
		b = b * uint64(n-k+i) / uint64(i)
	}
	return b
}

func TestJoinIDs(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 9, Method: partition.Join})
	require.NoError(t, err)
	// The symmetric searches first (p0..p8, r0..r8), then the row splits.
	assert.Equal(t, "p0", p.Tasks[0].ID)
	assert.Equal(t, board.PointSymmetric, p.Tasks[0].Kind)
	assert.Equal(t, board.Rot90Symmetric, p.Tasks[9].Kind)
	assert.Equal(t, "m0:e01e", p.Tasks[18].ID)
	q, err := partition.Make(context.Background(), partition.Job{N: 9, Method: partition.Join})
	require.NoError(t, err)
	assert.Equal(t, p.Fingerprint(), q.Fingerprint())
	assert.Equal(t, partition.Join, partition.Best(16))
	assert.Equal(t, partition.Sym, partition.Best(partition.JoinFrom-1))
	assert.Equal(t, partition.Sym, partition.Best(partition.JoinMaxN+1))
	_, err = partition.Make(context.Background(), partition.Job{N: partition.JoinMaxN + 1, Method: partition.Join})
	assert.ErrorIs(t, err, board.ErrSize)
}

// TestIsShards: the one shard rule, 0 ≤ first ≤ last < m, and its callers
// (the parsers, Plan and Plans) refuse what it refuses with its words.
func TestIsShards(t *testing.T) {
	for _, tc := range []struct {
		first, last, m int
		ok             bool
	}{
		{0, 0, 1, true}, {3, 3, 8, true}, {0, 7, 8, true}, {2, 5, 8, true},
		{0, 0, 0, false}, {-1, 0, 8, false}, {4, 3, 8, false}, {0, 8, 8, false}, {8, 8, 8, false}, {0, 0, -1, false},
	} {
		assert.Equal(t, tc.ok, partition.IsShards(tc.first, tc.last, tc.m), "%d-%d/%d", tc.first, tc.last, tc.m)
		s := fmt.Sprintf("%d-%d/%d", tc.first, tc.last, tc.m)
		_, _, _, err := partition.ParseShards(s)
		assert.Equal(t, tc.ok, err == nil, s)
		if err != nil {
			assert.ErrorContains(t, err, partition.ShardsAccepted)
		}
	}
	pl, err := partition.NewPlanner(context.Background(), partition.Job{N: 8})
	require.NoError(t, err)
	_, err = pl.Plan(8, 8, 0)
	assert.ErrorIs(t, err, partition.ErrShard)
	assert.ErrorContains(t, err, partition.ShardAccepted)
	_, err = pl.Plans(5, 4, 8, 0)
	assert.ErrorIs(t, err, partition.ErrShard)
	assert.ErrorContains(t, err, partition.RangeAccepted)
}

// TestCheckSize: the one board-size rule, 0 ≤ n ≤ largest, with its words.
func TestCheckSize(t *testing.T) {
	for _, n := range []int{0, 1, 32, partition.MaxN} {
		assert.NoError(t, board.CheckSize(n, partition.MaxN), "n=%d", n)
	}
	for _, n := range []int{-1, partition.MaxN + 1} {
		err := board.CheckSize(n, partition.MaxN)
		assert.ErrorIs(t, err, board.ErrSize, "n=%d", n)
		assert.EqualError(t, err, fmt.Sprintf("board size out of range: %d (accepted: 0..64)", n))
	}
	assert.NoError(t, board.CheckSize(board.MaxSolveN, board.MaxSolveN))
	assert.Equal(t, "0..10000000", board.SizeAccepted(board.MaxSolveN))
	_, err := partition.NewPlanner(context.Background(), partition.Job{N: partition.MaxN + 1})
	assert.ErrorIs(t, err, board.ErrSize)
}

// TestWords: a JobError's message names its fields in lower case; the same
// Words say it in other words (the library's options, the command's flags)
// and write squares as the reader does.
func TestWords(t *testing.T) {
	_, err := partition.NewPlanner(context.Background(), partition.Job{N: 8, Method: partition.Sym, Placed: []board.Square{{Row: 0, Col: 1}}})
	var je *partition.JobError
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "placed works with method mirror only (its default), not method sym", err.Error())
	opt := je.Words.Rename(func(f string) string { return "With" + f })
	assert.Equal(t, "WithPlaced: works with WithMethod:mirror only (its default), not WithMethod:sym",
		opt.Say(func(n msg.Name) string { return n.Of + ":" + n.Value }, nil))
	err = partition.CheckPlacement(8, []board.Square{{Row: 0, Col: 1}, {Row: 0, Col: 1}})
	require.ErrorAs(t, err, &je)
	assert.Equal(t, "placed: square 0:1 is given twice", err.Error())
	assert.Equal(t, "--place: square b1 is given twice",
		je.Words.Say(func(msg.Name) string { return "--place" }, func(x any) (string, bool) {
			_, ok := x.(board.Square)
			return "b1", ok
		}))
}
