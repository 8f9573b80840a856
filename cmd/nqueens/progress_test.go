package main

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens"
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
	label := func(p nqueens.Progress) string { return fmt.Sprintf("count %d (%s)", p.N, p.Method) }
	p := &progress{label: label, start: time.Unix(1000, 0), stopc: make(chan struct{})}
	p.update(nqueens.Progress{N: 20, Method: nqueens.Sym, Planned: 400, Tasks: 2})
	assert.Equal(t, "nqueens: count 20 (sym): 0.0% of the estimated work, 0 tasks done, 10s elapsed, ETA unknown", p.status(time.Unix(1010, 0)))
	// A quarter of the work in 10 s: 30 s to go, though only one of two
	// tasks is left: the estimate follows cost, not task count.
	p.update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 100, Planned: 400, TasksDone: 1, Tasks: 2})
	assert.Equal(t, "nqueens: count 20 (sym): 25.0% of the estimated work, 1 tasks done, 10s elapsed, ETA 30s", p.status(time.Unix(1010, 0)))
	p.stop()
	p.stop() // idempotent
	// Work a journal held before the run is not in the rate: half done at
	// the start, three quarters after 10 s: 10 s to go.
	p = &progress{label: label, start: time.Unix(1000, 0), stopc: make(chan struct{})}
	p.update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 200, Planned: 400, TasksDone: 1, Tasks: 3})
	p.update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 300, Planned: 400, TasksDone: 2, Tasks: 3})
	assert.Equal(t, "nqueens: count 20 (sym): 75.0% of the estimated work, 2 tasks done, 10s elapsed, ETA 10s", p.status(time.Unix(1010, 0)))
}

// BenchmarkProgress shows that progress costs nothing measurable: a count
// with the progress display against one without.
func BenchmarkProgress(b *testing.B) {
	for _, on := range []bool{false, true} {
		name := "progress=off"
		if on {
			name = "progress=on"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				opts := []nqueens.Option{nqueens.WithWorkers(2), nqueens.WithMethod(nqueens.Sym)}
				var p *progress
				if on {
					p = progressFlags{plain: true, interval: time.Millisecond}.start(&bytes.Buffer{}, func(nqueens.Progress) string { return "bench" })
					opts = append(opts, nqueens.WithProgress(p.update))
				}
				if _, err := nqueens.Count(context.Background(), 13, opts...); err != nil {
					b.Fatal(err)
				}
				if p != nil {
					p.stop()
				}
			}
		})
	}
}
