package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// TestProgressPlain renders progress without a terminal: status lines with
// --progress, nothing by default or with --quiet, never anything on stdout.
func TestProgressPlain(t *testing.T) {
	out, errs := runOK(t, "count", "15", "--method", "sym", "--progress", "--progress-interval", "5ms", "-j", "1")
	assert.Equal(t, "2279184\n", out)
	line := regexp.MustCompile(`^nqueens: count 15 \(sym\): \d+\.\d% of the estimated work, \d+ tasks done, \S+ elapsed, ETA \S+$`)
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	assert.NotEmpty(t, errs, "status lines expected")
	for _, l := range lines {
		assert.Regexp(t, line, l)
	}
	for _, args := range [][]string{{"count", "14"}, {"count", "14", "--quiet", "--progress"}, {"table", "10", "13", "-q"}} {
		_, errs := runOK(t, args...)
		assert.Empty(t, errs, "%v", args)
	}
}

func TestProgressStatus(t *testing.T) {
	p := &progress{label: "count 20 (sym)", total: 400, start: time.Unix(1000, 0), stopc: make(chan struct{})}
	assert.Equal(t, "nqueens: count 20 (sym): 0.0% of the estimated work, 0 tasks done, 10s elapsed, ETA unknown", p.status(time.Unix(1010, 0)))
	plan := &partition.Plan{Tasks: []partition.Task{{Cost: 100}, {Cost: 300}}}
	done := p.taskDone(plan)
	done(engine.Result{Task: 0})
	// A quarter of the work in 10 s: 30 s to go, though only one of two
	// tasks is left: the estimate follows cost, not task count.
	assert.Equal(t, "nqueens: count 20 (sym): 25.0% of the estimated work, 1 tasks done, 10s elapsed, ETA 30s", p.status(time.Unix(1010, 0)))
	p.stop()
	p.stop() // idempotent
}

// BenchmarkProgress shows that progress costs nothing measurable: a count
// with the progress callback against one without.
func BenchmarkProgress(b *testing.B) {
	plan, err := partition.Make(partition.Job{N: 13, Method: partition.Sym})
	if err != nil {
		b.Fatal(err)
	}
	for _, on := range []bool{false, true} {
		name := "progress=off"
		if on {
			name = "progress=on"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				opt := engine.Options{Workers: 2}
				var p *progress
				if on {
					p = progressFlags{plain: true, interval: time.Millisecond}.start(&bytes.Buffer{}, "bench", plan.Cost())
					opt.OnResult = p.taskDone(plan)
				}
				if _, err := engine.Run(context.Background(), 13, plan.Tasks, opt); err != nil {
					b.Fatal(err)
				}
				if p != nil {
					p.stop()
				}
			}
		})
	}
}
