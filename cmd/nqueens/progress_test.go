package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/cli"
	"github.com/nqueens/nqueens/cmd/nqueens/internal/progress"
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
				opts := []nqueens.CountOption{nqueens.WithWorkers(2), nqueens.WithMethod(nqueens.Sym)}
				var p *progress.Display
				if on {
					p = cli.Progress{Plain: true, Interval: time.Millisecond}.Start(&bytes.Buffer{}, func(nqueens.Progress) string { return "bench" })
					opts = append(opts, nqueens.WithProgress(p.Update))
				}
				if _, err := nqueens.Count(context.Background(), 13, opts...); err != nil {
					b.Fatal(err)
				}
				if p != nil {
					p.Stop()
				}
			}
		})
	}
}
