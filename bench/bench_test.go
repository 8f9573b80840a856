// Package bench holds the Go benchmarks of the counting engine. Each
// benchmark counts a whole board and reports nodes/s and solutions/s; names
// follow the pattern method=M/n=N/workers=W so benchstat can compare runs:
//
//	go test ./bench -run '^$' -bench . -count 6 | tee new.txt
//	benchstat old.txt new.txt
//
// NQUEENS_BENCH_N (e.g. "16" or "12-17") and NQUEENS_BENCH_METHODS select
// the boards and methods; the default is n = 12..16 for every method.
package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

func boards(b *testing.B) (lo, hi int) {
	return boardRange(b, "NQUEENS_BENCH_N", 12, 16, known.MaxN)
}

// boardRange reads "N" or "LO-HI" (within 0..limit) from the environment
// variable env; lo and hi are the defaults.
func boardRange(b *testing.B, env string, lo, hi, limit int) (int, int) {
	s := os.Getenv(env)
	if s == "" {
		return lo, hi
	}
	a, z, ok := strings.Cut(s, "-")
	if !ok {
		z = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(z)
	if err1 != nil || err2 != nil || lo < 0 || hi > limit || lo > hi {
		b.Fatalf("%s=%q: want N or LO-HI within 0..%d", env, s, limit)
	}
	return lo, hi
}

// countBoard plans and counts an n×n board with method m on w workers, as
// `nqueens count` does, b.N times, and checks the total.
func countBoard(b *testing.B, n int, m partition.Method, w int) engine.Counts {
	var c engine.Counts
	for b.Loop() {
		p, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
		if err != nil {
			b.Fatal(err)
		}
		c, err = engine.Run(context.Background(), p, engine.Options{Workers: w})
		if err != nil {
			b.Fatal(err)
		}
	}
	if got, want := c.Total, wide.Of(known.Total[n]); got != want {
		b.Fatalf("Count(%d) = %s, want %d", n, c.Total, want)
	}
	return c
}

func methods(b *testing.B) []partition.Method {
	s := os.Getenv("NQUEENS_BENCH_METHODS")
	if s == "" {
		return partition.Methods
	}
	var ms []partition.Method
	for _, name := range strings.Split(s, ",") {
		m, err := partition.ParseMethod(name)
		if err != nil {
			b.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

// workerCounts is 1, 2, 4, … up to the logical cores (or GOMAXPROCS, if
// lower), and that number itself.
func workerCounts() []int {
	return engine.WorkerSteps(min(engine.DefaultWorkers(), runtime.GOMAXPROCS(0)))
}

// BenchmarkCount counts whole boards: plan and run, as `nqueens count` does.
func BenchmarkCount(b *testing.B) {
	lo, hi := boards(b)
	for _, m := range methods(b) {
		for n := lo; n <= hi; n++ {
			for _, w := range workerCounts() {
				b.Run(fmt.Sprintf("method=%s/n=%d/workers=%d", m, n, w), func(b *testing.B) {
					c := countBoard(b, n, m, w)
					sec := b.Elapsed().Seconds() / float64(b.N)
					b.ReportMetric(c.Nodes.Float64()/sec, "nodes/s")
					b.ReportMetric(c.Total.Float64()/sec, "solutions/s")
				})
			}
		}
	}
}

// BenchmarkCountPlaced counts with queens placed in advance (the planner
// bans their squares; no symmetry unless the placement is mirror-symmetric)
// for workers = 1..cores, as `nqueens count --place` does.
func BenchmarkCountPlaced(b *testing.B) {
	placements := map[string][]board.Square{
		"asymmetric": {{Row: 0, Col: 3}, {Row: 7, Col: 1}},
		"middle":     {{Row: 4, Col: 8}},
	}
	for _, name := range []string{"asymmetric", "middle"} {
		placed := placements[name]
		n := 17
		for _, w := range workerCounts() {
			b.Run(fmt.Sprintf("place=%s/n=%d/workers=%d", name, n, w), func(b *testing.B) {
				var c engine.Counts
				for b.Loop() {
					p, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Mirror, Placed: placed})
					if err != nil {
						b.Fatal(err)
					}
					c, err = engine.Run(context.Background(), p, engine.Options{Workers: w})
					if err != nil {
						b.Fatal(err)
					}
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(c.Nodes.Float64()/sec, "nodes/s")
				b.ReportMetric(c.Total.Float64()/sec, "solutions/s")
			})
		}
	}
}

// BenchmarkJoin counts n = 14..18 (NQUEENS_BENCH_JOIN_N overrides, e.g.
// "16-17") with the join method for workers = 1..cores, reporting
// solutions/s and the peak of live heap memory during the run.
func BenchmarkJoin(b *testing.B) {
	lo, hi := boardRange(b, "NQUEENS_BENCH_JOIN_N", 14, 18, min(partition.JoinMaxN, known.MaxN))
	for n := lo; n <= hi; n++ {
		for _, w := range workerCounts() {
			b.Run(fmt.Sprintf("method=join/n=%d/workers=%d", n, w), func(b *testing.B) {
				peak := watchHeap()
				c := countBoard(b, n, partition.Join, w)
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(c.Total.Float64()/sec, "solutions/s")
				b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
			})
		}
	}
}

// watchHeap samples the live heap every 5 ms until the returned function
// is called, which returns the largest sample.
func watchHeap() func() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	runtime.GC()
	var peak atomic.Uint64
	peak.Store(read())
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if v := read(); v > peak.Load() {
					peak.Store(v)
				}
			}
		}
	}()
	return func() uint64 {
		close(stop)
		<-done
		return peak.Load()
	}
}

// BenchmarkPieces counts the other pieces' boards and the torus on one
// worker (plan and run, as `nqueens count --piece` does): one board each,
// reporting nodes/s (pieces placed; none for the closed forms of kings and
// rooks and the knights' row sweep) and solutions/s; king-search and
// knight-search time the search kernel (the one placed pieces use) on the
// whole board.
func BenchmarkPieces(b *testing.B) {
	for _, tc := range []struct {
		piece  board.Piece
		torus  bool
		n      int
		want   uint64
		search bool // without a closed form
	}{
		{board.Superqueen, false, 15, known.Pieces["superqueen"].Total[15], false},
		{board.King, false, 14, known.Pieces["king"].Total[14], false}, // in closed form
		{board.King, false, 11, known.Pieces["king"].Total[11], true},
		{board.Knight, false, 14, 2586423174, false}, // by the row sweep; no published count: the tests check it against the search
		{board.Knight, false, 10, 0, true},
		{board.Queen, true, 13, known.Pieces["queen torus"].Total[13], false},
		{board.Rook, false, 20, 2432902008176640000, false}, // 20!, in closed form
	} {
		name := string(tc.piece)
		if tc.torus {
			name += "-torus"
		}
		if tc.search {
			name += "-search"
		}
		b.Run(fmt.Sprintf("piece=%s/n=%d/workers=1", name, tc.n), func(b *testing.B) {
			var c engine.Counts
			for b.Loop() {
				p, err := partition.Make(context.Background(), partition.Job{N: tc.n, Piece: tc.piece, Torus: tc.torus, Every: tc.search})
				if err != nil {
					b.Fatal(err)
				}
				if c, err = engine.Run(context.Background(), p, engine.Options{Workers: 1}); err != nil {
					b.Fatal(err)
				}
			}
			if tc.want != 0 && c.Total != wide.Of(tc.want) {
				b.Fatalf("%s n=%d: %s, want %d", name, tc.n, c.Total, tc.want)
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(c.Nodes.Float64()/sec, "nodes/s")
			b.ReportMetric(c.Total.Float64()/sec, "solutions/s")
		})
	}
}

// BenchmarkParts times a sample's join tasks whole and in parts thinned
// 4-, 16- and 64-fold (what `nqueens plan --sample` counts where whole
// tasks are too long to sample), one task after another so that the
// machine's drift falls on both alike, and reports the parts' estimate of
// the tasks' time over the time itself (est/whole-K: 1 is right), the
// whole tasks' time (whole-s) and the parts' (parts-K-s).
// NQUEENS_BENCH_PARTS_N picks the boards (default 22) and
// NQUEENS_BENCH_PARTS_TASKS about how many tasks each (default 20); from n
// = 24 a task takes seconds:
//
//	NQUEENS_BENCH_PARTS_N=24-25 go test ./bench -run '^$' -bench Parts -benchtime 1x
func BenchmarkParts(b *testing.B) {
	lo, hi := boardRange(b, "NQUEENS_BENCH_PARTS_N", 22, 22, partition.JoinMaxN)
	want := 20
	if s := os.Getenv("NQUEENS_BENCH_PARTS_TASKS"); s != "" {
		var err error
		if want, err = strconv.Atoi(s); err != nil || want < 1 {
			b.Fatalf("NQUEENS_BENCH_PARTS_TASKS=%q: want a positive number", s)
		}
	}
	thins := []int{4, 16, 64}
	for n := lo; n <= hi; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pl, err := partition.NewPlanner(context.Background(), partition.Job{N: n, Method: partition.Join})
			if err != nil {
				b.Fatal(err)
			}
			tasks, _, err := pl.Sample(want, 0x6e7175656e73)
			if err != nil {
				b.Fatal(err)
			}
			probe := prober(b, n, tasks)
			var whole float64
			parts := make([][]engine.Probe, len(thins))
			for b.Loop() {
				whole = 0
				for j := range parts {
					parts[j] = parts[j][:0]
				}
				for i := range tasks {
					probe(i, 1<<12) // its quarter lists, as a count's contiguous tasks find them
					whole += probe(i, 1).Elapsed.Seconds()
					for j, k := range thins {
						parts[j] = append(parts[j], probe(i, k))
					}
				}
			}
			b.ReportMetric(whole, "whole-s")
			for j, k := range thins {
				var est, took float64
				for i, t := range engine.TaskTimes(parts[j]) {
					est += t
					took += parts[j][i].Elapsed.Seconds()
				}
				b.ReportMetric(est/whole, fmt.Sprintf("est/whole-%d", k))
				b.ReportMetric(took, fmt.Sprintf("parts-%d-s", k))
			}
		})
	}
}

// BenchmarkWholeTasks checks the sampler's estimate of single join tasks
// against their whole count: for each board of NQUEENS_BENCH_WHOLE_N
// (default 20, whose tasks take milliseconds; the check is made at 26-28),
// NQUEENS_BENCH_WHOLE_TASKS tasks (default 20) drawn from
// the plan by the seeded random choice samples use (Planner.Sample, seed
// NQUEENS_BENCH_WHOLE_SEED, default 39), each sampled in a part as a
// five-minute `nqueens plan --sample` would thin it (a part of about
// wholeUnit) and then counted whole, one after another on one worker. The
// predicted time is the part's estimate with the matching speed pooled
// over the drawn tasks' parts (engine.TaskTimes, as the sampler pools
// it), the measured one the whole count's CPU time on its thread; both
// with the quarter cache warm (a part is counted once before, untimed).
// It reports the mean of measured/predicted (1 is right) and, with
// NQUEENS_BENCH_WHOLE_CSV naming a file, appends one line per task:
//
//	n,task,predicted_core_seconds,measured_core_seconds,commit,id,thin,ways,seed,cpu
//
// (commit from NQUEENS_BENCH_COMMIT). From n = 26 a task takes seconds
// to minutes:
//
//	NQUEENS_BENCH_WHOLE_N=28 NQUEENS_BENCH_WHOLE_TASKS=4 go test ./bench -run '^$' -bench WholeTasks -benchtime 1x -timeout 0
func BenchmarkWholeTasks(b *testing.B) {
	lo, hi := boardRange(b, "NQUEENS_BENCH_WHOLE_N", 20, 20, partition.JoinMaxN)
	want := envInt(b, "NQUEENS_BENCH_WHOLE_TASKS", 20)
	seed := uint64(envInt(b, "NQUEENS_BENCH_WHOLE_SEED", 39))
	commit := cmp.Or(os.Getenv("NQUEENS_BENCH_COMMIT"), "unknown")
	cpu := machine.Detect().CPU
	for n := lo; n <= hi; n++ {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			pl, err := partition.NewPlanner(context.Background(), partition.Job{N: n, Method: partition.Join})
			if err != nil {
				b.Fatal(err)
			}
			drawn, _, err := pl.Sample(want+2*n+2, seed)
			if err != nil {
				b.Fatal(err)
			}
			var tasks []partition.Task // the join tasks, not the symmetric searches
			for _, t := range drawn {
				if t.Kind == board.Halves && len(tasks) < want {
					tasks = append(tasks, t)
				}
			}
			probe := prober(b, n, tasks)
			parts := make([]engine.Probe, len(tasks))
			measured := make([]float64, len(tasks))
			for b.Loop() {
				for i := range tasks {
					// A first small part says how long the task is.
					first := probe(i, 1<<max(0, n-20))
					k := int(math.Ceil(engine.TaskTimes([]engine.Probe{first})[0] / wholeUnit.Seconds()))
					probe(i, max(1, k)) // the cache warm, as the sampler's second pass finds it
					parts[i] = probe(i, max(1, k))
					measured[i] = probe(i, 1).Elapsed.Seconds()
				}
			}
			predicted := engine.TaskTimes(parts)
			var ratio float64
			var rows strings.Builder
			for i, t := range tasks {
				ratio += measured[i] / predicted[i]
				fmt.Fprintf(&rows, "%d,%d,%.3f,%.3f,%s,%s,%d,%d,%d,%q\n", n, i, predicted[i], measured[i], commit, t.ID, parts[i].Thin, parts[i].Ways, seed, cpu)
			}
			b.ReportMetric(ratio/float64(len(tasks)), "measured/predicted")
			b.ReportMetric(sum(measured)/float64(len(tasks)), "s/task")
			if path := os.Getenv("NQUEENS_BENCH_WHOLE_CSV"); path != "" {
				f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					b.Fatal(err)
				}
				_, err = f.WriteString(rows.String())
				if err = errors.Join(err, f.Close()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// wholeUnit is the time of a part of a task in a five-minute sample: two
// passes of half the time, 400 units each (the sampler's unitsWanted).
const wholeUnit = 5 * time.Minute / 2 / 400

// envInt reads a positive number from the environment variable env, def
// if it is unset.
func envInt(b *testing.B, env string, def int) int {
	s := os.Getenv(env)
	if s == "" {
		return def
	}
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		b.Fatalf("%s=%q: want a positive number", env, s)
	}
	return v
}

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// prober returns a function that probes task i of tasks (join tasks of an
// n×n board) thinned k-fold on one sampler, failing b on an error.
func prober(b *testing.B, n int, tasks []partition.Task) func(i, k int) engine.Probe {
	s, err := engine.NewSampler(&partition.Plan{N: n, Method: partition.Join, Tasks: tasks, Shards: 1}, 0)
	if err != nil {
		b.Fatal(err)
	}
	return func(i, k int) engine.Probe {
		p, err := s.Probe(i, k)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
}
