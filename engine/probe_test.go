package engine

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// TestThinNorth: over the offsets, a thinned list's placements are the
// list's, each exactly once, grouped under their own keys.
func TestThinNorth(t *testing.T) {
	var l quarterList
	listQuarter(&l, 16, 0, 0b1011_0110, 0xff, new(quarterScratch))
	require.NotEmpty(t, l.places)
	type kp struct{ key, place uint64 }
	pairs := func(l *quarterList) (out []kp) {
		for i, k := range l.keys {
			for _, p := range l.places[l.offs[i]:l.offs[i+1]] {
				out = append(out, kp{k, p})
			}
		}
		return out
	}
	cmpKP := func(a, b kp) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return cmp.Compare(a.place, b.place)
	}
	for _, thin := range []int{1, 2, 3, 7, 64, 10000} {
		var all []kp
		var dst quarterList
		for off := range thin {
			got := thinNorth(&l, &dst, thin, off)
			require.Len(t, got.offs, len(got.keys)+1)
			require.True(t, slices.IsSorted(got.keys), "keys increasing")
			for i := range got.keys {
				require.Less(t, got.offs[i], got.offs[i+1], "no empty keys")
			}
			all = append(all, pairs(got)...)
		}
		want := pairs(&l)
		slices.SortFunc(all, cmpKP)
		slices.SortFunc(want, cmpKP)
		require.Equal(t, want, all, "thin %d: each placement once, under its key", thin)
	}
	for range 100 {
		seed, thin := rand.Uint64(), 1+rand.IntN(1000)
		assert.Less(t, thinOffset(seed, thin), thin)
		assert.GreaterOrEqual(t, thinOffset(seed, thin), 0)
	}
}

// TestProbe: a whole probe is the task's count; a part is the same each
// time, and over many tasks the parts scaled up list as many half-boards
// and model as much matching work as the whole tasks (n = 19, odd, and
// 20, even with long-diagonal weights). A whole task's work is modeled as
// countSides orients it, a part's with its thinned side transposed: the
// model must not depend on the orientation.
func TestProbe(t *testing.T) {
	for _, n := range []int{19, 20} {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		// 300 tasks spread over the plan (50 with -short).
		want := 300
		if testing.Short() {
			want = 50
		}
		var tasks []partition.Task
		for i := 0; i < len(p.Tasks); i += len(p.Tasks) / want {
			tasks = append(tasks, p.Tasks[i])
		}
		sp := &partition.Plan{N: n, Method: partition.Join, Tasks: tasks, Shards: 1}
		s, err := NewSampler(sp, 0)
		require.NoError(t, err)
		var nodes, nodes4, work, work4 float64
		for i := range tasks {
			whole, err := s.Probe(i, 1)
			require.NoError(t, err)
			want, err := s.Count(i)
			require.NoError(t, err)
			require.Equal(t, want, whole.Result, "n=%d task %d", n, i)
			require.Equal(t, 1, whole.Thin)
			require.Equal(t, whole.Work, whole.TaskWork)
			if tasks[i].Kind != board.Halves {
				continue
			}
			part, err := s.Probe(i, 4)
			require.NoError(t, err)
			again, err := s.Probe(i, 4)
			require.NoError(t, err)
			require.Equal(t, part.Result, again.Result, "a part is the same each time")
			require.Equal(t, 4, part.Thin)
			require.LessOrEqual(t, part.Result.Total, whole.Result.Total)
			require.Equal(t, 1, part.ThinWest, "n ≤ 20: the west side fits")
			require.Positive(t, part.Linear)
			if whole.Patterns == 0 {
				continue // larger than the buffers: counted whole, nothing modeled
			}
			nodes += whole.Patterns
			nodes4 += part.Patterns
			work += whole.Work
			work4 += part.TaskWork
		}
		assert.InEpsilon(t, nodes, nodes4, 0.05, "n=%d: half-boards, whole and estimated from parts", n)
		assert.InEpsilon(t, work, work4, 0.15, "n=%d: matching work, whole and modeled from parts", n)
		t.Logf("n=%d, %d tasks: half-boards %.4g, from parts %.4g; work %.4g, modeled %.4g", n, len(tasks), nodes, nodes4, work, work4)
	}
	// Buffers of the least size: both sides thinned to fit, still the
	// same each time, and the half-boards estimated as well.
	p, err := partition.Make(context.Background(), partition.Job{N: 20, Method: partition.Join})
	require.NoError(t, err)
	k := 20
	if testing.Short() {
		k = 5
	}
	sp := &partition.Plan{N: 20, Method: partition.Join, Tasks: p.Tasks[len(p.Tasks)/2:][:k], Shards: 1}
	small, err := NewSampler(sp, minMemory(sp, 1)+quarterListBytes(sp.N))
	require.NoError(t, err)
	require.Equal(t, minJoinChunk, small.js.chunk)
	big, err := NewSampler(sp, 0)
	require.NoError(t, err)
	var thinned int
	var want, got float64
	for i := range sp.Tasks {
		a, err := small.Probe(i, 2)
		require.NoError(t, err)
		b, err := small.Probe(i, 2)
		require.NoError(t, err)
		require.Equal(t, a.Result, b.Result)
		require.Equal(t, [2]int{a.Thin, a.ThinWest}, [2]int{b.Thin, b.ThinWest})
		if a.ThinWest > 1 {
			thinned++
		}
		whole, err := big.Probe(i, 1)
		require.NoError(t, err)
		want += whole.Patterns
		got += a.Patterns
	}
	assert.Positive(t, thinned, "some west sides thinned to fit")
	assert.InEpsilon(t, want, got, 0.1, "half-boards, whole and estimated from parts thinned on both sides")

	// A task that is not a join task is counted whole.
	p, err = partition.Make(context.Background(), partition.Job{N: 12, Method: partition.Sym})
	require.NoError(t, err)
	s, err := NewSampler(p, 0)
	require.NoError(t, err)
	pr, err := s.Probe(0, 8)
	require.NoError(t, err)
	r, err := s.Count(0)
	require.NoError(t, err)
	assert.Equal(t, r, pr.Result)
	assert.Equal(t, 1, pr.Thin)
	_, err = s.Probe(len(p.Tasks), 1)
	assert.ErrorIs(t, err, errPlan)
}
