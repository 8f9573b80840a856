package engine

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/partition"
)

// TestJoinProfileLarge profiles whole join tasks of a large board, where
// NQUEENS_PROFILE_N names it (27, 28), on two goroutines: a sample of
// NQUEENS_PROFILE_TASKS tasks (default 8) drawn with the estimates' own
// sampler (Planner.Sample, seed 0x6e7175656e73), each counted whole by
// Sampler.Probe on a thread of its own and timed by its CPU time. It logs
// a line a task and the sums: ns a solution; the shares of the quarter
// lists, the rest outside the matching (listing both sides, the sieve's
// sort) and the matching; the north-south pairs (nodes) and the modelled
// matching work (items matched against a block, and the blocks' builds)
// a solution. bench/data/join-profile-*.txt keeps its output.
func TestJoinProfileLarge(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("NQUEENS_PROFILE_N"))
	if n == 0 {
		t.Skip("NQUEENS_PROFILE_N=27 (or 28) profiles whole tasks of that board: minutes")
	}
	k := 8
	if v, err := strconv.Atoi(os.Getenv("NQUEENS_PROFILE_TASKS")); err == nil && v > 0 {
		k = v
	}
	pl, err := partition.NewPlanner(context.Background(), partition.Job{N: n, Method: partition.Join})
	require.NoError(t, err)
	tasks, _, err := pl.Sample(k, 0x6e7175656e73)
	require.NoError(t, err)
	plan := pl.PlanOf(tasks, 0, 1)
	var mu sync.Mutex
	var sum, split Probe // every task's, and those probed in their stages'
	var g sync.WaitGroup
	next := 0
	for range 2 {
		g.Add(1)
		go func() {
			defer g.Done()
			s, err := NewSampler(plan, 0)
			if err != nil {
				t.Error(err)
				return
			}
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(plan.Tasks) {
					return
				}
				p, err := s.Probe(i, 1)
				if err != nil {
					t.Error(err)
					return
				}
				tot := float64(p.Result.Total)
				mu.Lock()
				if p.Match == 0 {
					// Larger than the probe's buffers: counted as a run
					// counts it, its stages not told apart.
					t.Logf("n = %d task %s: %d solutions in %.1f s (%.2f ns a solution), counted whole (its sides pass the probe's buffers: no stages)",
						n, plan.Tasks[i].ID, p.Result.Total, p.Elapsed.Seconds(), p.Elapsed.Seconds()/tot*1e9)
				} else {
					t.Logf("n = %d task %s: %d solutions in %.1f s (%.2f ns a solution): quarters %.1f%%, the rest outside the matching %.1f%%, matching %.1f%%; %.3g pairs and %.3g units of matching work a solution",
						n, plan.Tasks[i].ID, p.Result.Total, p.Elapsed.Seconds(), p.Elapsed.Seconds()/tot*1e9,
						100*p.Quarters/p.Elapsed.Seconds(), 100*(p.Linear-p.Quarters)/p.Elapsed.Seconds(), 100*p.Match/p.Elapsed.Seconds(),
						float64(p.Result.Nodes)/tot, p.TaskWork/tot)
					split.add(p)
				}
				sum.add(p)
				mu.Unlock()
			}
		}()
	}
	g.Wait()
	tot, el := float64(sum.Result.Total), sum.Elapsed.Seconds()
	require.Positive(t, tot)
	t.Logf("n = %d, %d tasks: %d solutions in %.1f core-seconds, %.2f ns a solution", n, len(plan.Tasks), sum.Result.Total, el, el/tot*1e9)
	if st, se := float64(split.Result.Total), split.Elapsed.Seconds(); st > 0 {
		t.Logf("n = %d, the tasks probed in their stages (%.0f%% of the time): %.2f ns a solution: quarters %.1f%%, the rest outside the matching %.1f%%, matching %.1f%%; %.3g pairs and %.3g units of matching work a solution",
			n, 100*se/el, se/st*1e9, 100*split.Quarters/se, 100*(split.Linear-split.Quarters)/se, 100*split.Match/se,
			float64(split.Result.Nodes)/st, split.TaskWork/st)
	}
}
