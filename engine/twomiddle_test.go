//go:build twomiddle

package engine

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/partition"
)

// These tests check the join with two middle columns between the halves
// (board.JoinMiddle) on boards small enough to count: built with
// -tags twomiddle, the planner cuts every even board from 4 on so, as it
// does n = 28 and above (go test -tags twomiddle -run TwoMiddle ./engine).

// TestJoinTwoMiddleLongWeights counts the two-middle plans of n = 4..14
// (16 in the long run) with their pairs weighted by their long-diagonal
// queens (as from board.JoinLongFrom on), unweighted too, with buffers
// of 16 patterns and whole sides: the weighted sum is the published
// total, and some tasks count another share than unweighted.
func TestJoinTwoMiddleLongWeights(t *testing.T) {
	boards := []int{4, 6, 8, 10, 12, 14}
	if long.Run() {
		boards = append(boards, 16)
	}
	for _, n := range boards {
		require.Equal(t, 2, board.JoinMiddle(n))
		checkLongWeights(t, n)
	}
}

// TestJoinTwoMiddle checks the join with two middle columns between the
// halves (board.JoinMiddle, the plan of even n from 28 on) on boards
// small enough to count: every total as published, with buffers of 16
// patterns too, so that sides come in pieces.
func TestJoinTwoMiddle(t *testing.T) {
	require.Equal(t, 2, board.JoinMiddle(4), "built with -tags twomiddle")
	boards := []int{4, 6, 8, 10, 12, 14}
	if long.Run() {
		boards = append(boards, 16)
	}
	for _, n := range boards {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		assert.Equal(t, 2, board.JoinMiddle(n))
		c, err := Run(context.Background(), p, Options{Workers: 2})
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "n=%d", n)
		js := &joinScratch{chunk: 16}
		qc := newQuarterCache(n, 0)
		var total uint64
		for _, task := range halves(p) {
			var r Result
			runJoin(n, &task, qc, js, &r)
			total += r.Total
		}
		assert.Equal(t, known.Total[n], total, "n=%d, buffers of 16", n)
	}
}

// TestProbeWaysTwoMiddle: with two middle columns (board.JoinMiddle) a part
// counts every Ways-th of its task's ways (at least minPartWays of them),
// then thins the east side; the
// same unit comes back from its Thin (a sample's second pass asks for it
// so), and over many tasks the parts scaled up list as many half-boards
// and model as much matching work as the whole tasks.
func TestProbeWaysTwoMiddle(t *testing.T) {
	require.Equal(t, 2, board.JoinMiddle(4), "built with -tags twomiddle")
	n := 18
	p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
	require.NoError(t, err)
	want := 200
	if testing.Short() {
		want = 40
	}
	var tasks []partition.Task
	for i := len(p.Tasks) - 1; i >= 0 && len(tasks) < want; i -= len(p.Tasks) / want {
		if p.Tasks[i].Kind == board.Halves {
			tasks = append(tasks, p.Tasks[i])
		}
	}
	s, err := NewSampler(&partition.Plan{N: n, Method: partition.Join, Tasks: tasks, Shards: 1}, 0)
	require.NoError(t, err)
	var nodes, work [3]float64
	for i := range tasks {
		whole, err := s.Probe(i, 1)
		require.NoError(t, err)
		c, err := s.Count(i)
		require.NoError(t, err)
		require.Equal(t, c, whole.Result, "task %d", i)
		require.Equal(t, 1, whole.Ways)
		nodes[0] += whole.Patterns
		work[0] += whole.Work
		ways := len(s.ways)
		for j, thin := range []int{4, 64} {
			part, err := s.Probe(i, thin)
			require.NoError(t, err)
			require.Equal(t, min(thin, max(1, ways/minPartWays)), part.Ways, "task %d, thinned %d: at least minPartWays ways", i, thin)
			require.Zero(t, part.Thin%part.Ways)
			again, err := s.Probe(i, part.Thin)
			require.NoError(t, err)
			require.Equal(t, part.Result, again.Result, "the same unit from its Thin")
			require.Equal(t, [3]int{part.Thin, part.Ways, part.ThinWest}, [3]int{again.Thin, again.Ways, again.ThinWest})
			require.LessOrEqual(t, part.Result.Total, whole.Result.Total)
			nodes[j+1] += part.Patterns
			work[j+1] += part.TaskWork
		}
	}
	for j, thin := range []int{4, 64} {
		assert.InEpsilon(t, nodes[0], nodes[j+1], 0.1, "half-boards, whole and estimated from parts thinned %d", thin)
		assert.InEpsilon(t, work[0], work[j+1], 0.2, "matching work, whole and modeled from parts thinned %d", thin)
	}
	t.Logf("half-boards %.4g, from parts %.4g and %.4g; work %.4g, modeled %.4g and %.4g", nodes[0], nodes[1], nodes[2], work[0], work[1], work[2])
}
