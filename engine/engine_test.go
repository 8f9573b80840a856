package engine_test

import (
	"context"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/long"
	"github.com/nqueens/nqueens/internal/reference"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

func count(t testing.TB, n int, m partition.Method, workers int) engine.Counts {
	t.Helper()
	p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
	require.NoError(t, err)
	c, err := engine.Run(context.Background(), p, engine.Options{Workers: workers})
	require.NoError(t, err)
	return c
}

func maxN(t *testing.T) int {
	if testing.Short() {
		return 13
	}
	return 15
}

func TestKnownTotals(t *testing.T) {
	for _, m := range partition.Methods {
		for n := 0; n <= maxN(t); n++ {
			t.Run(fmt.Sprintf("%s/n=%d", m, n), func(t *testing.T) {
				c := count(t, n, m, 2)
				assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "Count(%d) total", n)
			})
		}
	}
}

// TestClasses checks the unique and symmetric counts of both methods that
// give them: sym classifies every solution it finds, join counts the
// symmetric solutions apart and derives unique by Burnside's lemma.
func TestClasses(t *testing.T) {
	for _, m := range []partition.Method{partition.Sym, partition.Join} {
		for n := 0; n <= maxN(t); n++ {
			t.Run(fmt.Sprintf("%s/n=%d", m, n), func(t *testing.T) {
				c := count(t, n, m, 2)
				if m == partition.Join {
					// Burnside's lemma, as the library derives it.
					c.Unique = wide.Of((low(c.Total) + low(c.PointSym) + 2*low(c.Rot90Sym)) / 8)
					if n <= 1 {
						c.Unique = c.Total
					}
				}
				assert.Equal(t, fmt.Sprint(known.Unique[n]), c.Unique.String(), "unique")
				assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), c.Rot90Sym.String(), "rot90")
				assert.Equal(t, fmt.Sprint(known.PointSym(n)), c.PointSym.String(), "point")
			})
		}
	}
}

func TestSymAgainstReference(t *testing.T) {
	for n := 0; n <= 10; n++ {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			total, unique, point, rot90 := reference.Classes(n)
			c := count(t, n, partition.Sym, 3)
			assert.Equal(t, wide.Of(total), c.Total, "total")
			assert.Equal(t, wide.Of(unique), c.Unique, "unique")
			assert.Equal(t, wide.Of(point), c.PointSym, "point")
			assert.Equal(t, wide.Of(rot90), c.Rot90Sym, "rot90")
		})
	}
}

// TestSlow counts n = 16 and 17 with every method (skipped with -short):
// each equals the published total and join equals sym.
func TestSlow(t *testing.T) {
	long.Skip(t, "counts n = 16 and 17 by every method: 13 s")
	totals := map[string]string{}
	for _, m := range partition.Methods {
		for n := 16; n <= 17; n++ {
			t.Run(fmt.Sprintf("%s/n=%d", m, n), func(t *testing.T) {
				c := count(t, n, m, 0)
				totals[fmt.Sprint(m, n)] = c.Total.String()
				assert.Equal(t, fmt.Sprint(known.Total[n]), c.Total.String(), "Count(%d)", n)
				if m == partition.Sym {
					assert.Equal(t, fmt.Sprint(known.Unique[n]), c.Unique.String(), "unique")
					assert.Equal(t, fmt.Sprint(known.Rot90Sym[n]), c.Rot90Sym.String(), "rot90")
					assert.Equal(t, fmt.Sprint(known.PointSym(n)), c.PointSym.String(), "point")
				}
			})
		}
	}
	for n := 16; n <= 17; n++ {
		assert.Equal(t, totals[fmt.Sprint(partition.Sym, n)], totals[fmt.Sprint(partition.Join, n)], "join vs sym, n=%d", n)
	}
}

// TestBurnside checks unique = (total + point + 2·rot90) / 8 for n ≥ 2.
func TestBurnside(t *testing.T) {
	for n := 2; n <= 14; n++ {
		c := count(t, n, partition.Sym, 2)
		lhs := 8 * low(c.Unique)
		rhs := low(c.Total) + low(c.PointSym) + 2*low(c.Rot90Sym)
		assert.Equal(t, lhs, rhs, "n=%d: 8·unique vs total + point + 2·rot90", n)
	}
}

// TestWorkers checks that the worker count changes nothing but speed.
func TestWorkers(t *testing.T) {
	for _, m := range partition.Methods {
		want := count(t, 12, m, 1)
		for _, w := range []int{2, 3, 8} {
			got := count(t, 12, m, w)
			assert.Equal(t, want, got, "%s workers=%d", m, w)
		}
	}
}

// TestKept runs shard after shard of join boards with one KeptBuffers, as
// CountShards does, the board and the memory changing on the way: every
// task's result is the one a run of its own gives.
func TestKeptBuffers(t *testing.T) {
	ctx := context.Background()
	var keep engine.KeptBuffers
	for _, job := range []struct {
		n      int
		memory int64
	}{{13, 0}, {13, 0}, {14, 0}, {14, 64 << 20}, {15, 0}, {13, 0}} {
		pl, err := partition.NewPlanner(ctx, partition.Job{N: job.n, Method: partition.Join})
		require.NoError(t, err)
		const m = 5
		ps, err := pl.Plans(0, m-1, m, 0)
		require.NoError(t, err)
		var total uint64
		for _, p := range ps {
			got, want := map[int]engine.Result{}, map[int]engine.Result{}
			_, err := engine.Run(ctx, p, engine.Options{Workers: 2, Memory: job.memory, Keep: &keep, OnResult: func(r engine.Result) { got[r.Task] = r }})
			require.NoError(t, err)
			_, err = engine.Run(ctx, p, engine.Options{Workers: 2, Memory: job.memory, OnResult: func(r engine.Result) { want[r.Task] = r }})
			require.NoError(t, err)
			require.Len(t, want, len(p.Tasks))
			assert.Equal(t, want, got, "n=%d shard %d: each task as a run of its own counts it", job.n, p.Shard)
			for _, r := range want {
				total += r.Total
			}
		}
		assert.Equal(t, known.Total[job.n], total, "n=%d", job.n)
	}
}

// TestTasksAgainstReference checks every mirror task of small boards
// against the slow reference: its result is weight × completions.
func TestTasksAgainstReference(t *testing.T) {
	for n := 4; n <= 11; n++ {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror})
		require.NoError(t, err)
		for i := range p.Tasks {
			task := &p.Tasks[i]
			pre := make([]int, len(task.Prefix))
			for j, c := range task.Prefix {
				pre[j] = int(c)
			}
			r, err := engine.RunTask(p, i)
			require.NoError(t, err)
			assert.Equal(t, task.Weight*reference.CountPrefix(n, pre), r.Total, "n=%d task %s", n, task.ID)
		}
	}
}

func TestResultsStream(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 11, Method: partition.Sym})
	require.NoError(t, err)
	seen := make([]bool, len(p.Tasks))
	var sum uint64
	c, err := engine.Run(context.Background(), p, engine.Options{Workers: 2, OnResult: func(r engine.Result) {
		assert.False(t, seen[r.Task], "task %d reported twice", r.Task)
		seen[r.Task] = true
		sum += r.Total
	}})
	require.NoError(t, err)
	assert.Equal(t, len(p.Tasks), c.Tasks)
	assert.Equal(t, known.Total[11], sum)
	for i, s := range seen {
		assert.True(t, s, "task %d not reported", i)
	}
}

func TestRunCancelled(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 15, Method: partition.Mirror})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c, err := engine.Run(ctx, p, engine.Options{Workers: 2})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, c.Tasks, len(p.Tasks))
}

func TestRunErrors(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 8, Method: partition.Sym})
	require.NoError(t, err)
	_, err = engine.Run(context.Background(), p, engine.Options{Workers: -1})
	assert.ErrorIs(t, err, engine.ErrWorkers)
	assert.GreaterOrEqual(t, engine.DefaultWorkers(), 1)
	_, err = engine.Run(context.Background(), nil, engine.Options{})
	assert.ErrorIs(t, err, engine.ErrPlan)
	for _, bad := range [][]bool{make([]bool, len(p.Tasks)-1), make([]bool, len(p.Tasks)+1)} {
		_, err = engine.Run(context.Background(), p, engine.Options{Skip: bad})
		assert.ErrorIs(t, err, engine.ErrPlan, "a Skip of %d for %d tasks", len(bad), len(p.Tasks))
	}
	// Every task skipped: nothing runs; an empty Skip skips none.
	all := make([]bool, len(p.Tasks))
	for i := range all {
		all[i] = true
	}
	none, err := engine.Run(context.Background(), p, engine.Options{Skip: all})
	require.NoError(t, err)
	assert.Zero(t, none.Tasks)
	every, err := engine.Run(context.Background(), p, engine.Options{Skip: []bool{}})
	require.NoError(t, err)
	assert.Equal(t, len(p.Tasks), every.Tasks)
	// A task of a kind no kernel knows, or a prefix off the board.
	broken := *p
	broken.Tasks = append([]partition.Task(nil), p.Tasks...)
	broken.Tasks[0].Kind = 99
	_, err = engine.Run(context.Background(), &broken, engine.Options{})
	assert.ErrorIs(t, err, engine.ErrPlan)
	broken.Tasks[0] = p.Tasks[0]
	broken.N = 3
	_, err = engine.Run(context.Background(), &broken, engine.Options{})
	assert.ErrorIs(t, err, engine.ErrPlan)
	_, err = engine.RunTask(p, len(p.Tasks))
	assert.ErrorIs(t, err, engine.ErrPlan)
	// A join too small for its memory limit.
	j, err := partition.Make(context.Background(), partition.Job{N: 16, Method: partition.Join})
	require.NoError(t, err)
	_, err = engine.Run(context.Background(), j, engine.Options{Workers: 4, Memory: 100 << 10})
	var me *engine.MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, engine.MinMemory(j, 4), me.Need)
	// Sym holds its tasks alone: no join buffers, and refused below that.
	assert.Equal(t, engine.MemoryNeed(p.N, partition.Sym, len(p.Tasks), 4), engine.MinMemory(p, 4))
	assert.Less(t, engine.MinMemory(p, 4), engine.MinMemory(j, 4))
	_, err = engine.Run(context.Background(), p, engine.Options{Workers: 4, Memory: 1 << 20})
	require.ErrorAs(t, err, &me)
	assert.Equal(t, partition.Sym, me.Method)
}

// low returns u, which the caller knows fits in 64 bits.
func low(u wide.Uint) uint64 {
	x, ok := u.Uint64()
	if !ok {
		panic(fmt.Sprintf("%s does not fit in 64 bits", u))
	}
	return x
}

// TestCountsWide: Counts sums per-task counts past 2^64 exactly, closed
// forms' wide totals too.
func TestCountsWide(t *testing.T) {
	var c engine.Counts
	for range 3 {
		c.Add(engine.Result{Total: 1 << 63, Nodes: ^uint64(0)})
	}
	assert.Equal(t, "27670116110564327424", c.Total.String())
	c.Add(engine.Result{TotalHi: [wide.Words - 1]uint64{0, 0, 0, 1}})
	assert.Equal(t, new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 256), mustBig("27670116110564327424")).String(), c.Total.String())
	assert.Equal(t, 4, c.Tasks)
}

func mustBig(s string) *big.Int {
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(s)
	}
	return b
}

func ExampleRun() {
	p, _ := partition.Make(context.Background(), partition.Job{N: 8, Method: partition.Sym})
	c, _ := engine.Run(context.Background(), p, engine.Options{})
	fmt.Println(c.Total, c.Unique)
	// Output: 92 12
}

// TestRunCancelJoin cancels a join run while tasks are running: it stops,
// and every result it reported is a whole task's (a task cut short by the
// stop is dropped, not reported with a partial count).
func TestRunCancelJoin(t *testing.T) {
	p, err := partition.Make(context.Background(), partition.Job{N: 16, Method: partition.Join})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	var got []engine.Result
	c, err := engine.Run(ctx, p, engine.Options{Workers: 2, OnResult: func(r engine.Result) {
		if got = append(got, r); len(got) == 20 {
			cancel()
		}
	}})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Less(t, c.Tasks, len(p.Tasks))
	require.NotEmpty(t, got)
	for _, r := range got {
		whole, err := engine.RunTask(p, r.Task)
		require.NoError(t, err)
		assert.Equal(t, whole.Total, r.Total, "task %s", p.Tasks[r.Task].ID)
	}
}

// BenchmarkKernel runs every task of a mirror and a sym plan of n = 14,
// made beforehand, on one goroutine: the backtracking kernels alone, which
// must report 0 allocs/op (the join's is BenchmarkJoinKernel; whole counts
// are in bench/).
func BenchmarkKernel(b *testing.B) {
	const n = 14
	for _, m := range []partition.Method{partition.Sym, partition.Mirror} {
		b.Run(fmt.Sprintf("method=%s/n=%d", m, n), func(b *testing.B) {
			p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(b, err)
			b.ReportAllocs()
			var total, nodes uint64
			for b.Loop() {
				total, nodes = 0, 0
				for i := range p.Tasks {
					r, err := engine.RunTask(p, i)
					if err != nil {
						b.Fatal(err)
					}
					total += r.Total
					nodes += r.Nodes
				}
			}
			require.Equal(b, known.Total[n], total)
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(nodes)/sec, "nodes/s")
			b.ReportMetric(float64(total)/sec, "solutions/s")
		})
	}
}

// TestFit: the one memory rule, need ≤ limit, and the refusal it builds;
// Run refuses by it.
func TestFit(t *testing.T) {
	require.NoError(t, engine.FitMemory(16, partition.Join, 2, 100, 1, 1<<30, 1<<30))
	err := engine.FitMemory(16, partition.Join, 2, 100, 4, 1<<30, 1<<30+1)
	var me *engine.MemoryError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, engine.MemoryError{N: 16, Method: partition.Join, Workers: 2, Tasks: 100, Shards: 4, Limit: 1 << 30, Need: 1<<30 + 1}, *me)
	p, err := partition.Make(context.Background(), partition.Job{N: 12, Method: partition.Join})
	require.NoError(t, err)
	_, err = engine.Run(context.Background(), p, engine.Options{Workers: 1, Memory: 1 << 10})
	require.ErrorAs(t, err, &me)
	assert.Equal(t, engine.FitMemory(12, partition.Join, 1, len(p.Tasks), 1, 1<<10, me.Need), err)
}
