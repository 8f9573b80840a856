package progress

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nqueens/nqueens"
)

func TestProgressStatus(t *testing.T) {
	label := func(p nqueens.Progress) string { return fmt.Sprintf("count %d (%s)", p.N, p.Method) }
	p := &Display{label: label, start: time.Unix(1000, 0), stopc: make(chan struct{})}
	p.Update(nqueens.Progress{N: 20, Method: nqueens.Sym, Planned: 400, Tasks: 2})
	assert.Equal(t, "nqueens: count 20 (sym): 0.0% of the estimated work, 0 tasks done, 10s elapsed, ETA unknown", p.Status(time.Unix(1010, 0)))
	// A quarter of the work in 10 s: 30 s to go, though only one of two
	// tasks is left: the estimate follows cost, not task count.
	p.Update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 100, Planned: 400, TasksDone: 1, Tasks: 2})
	assert.Equal(t, "nqueens: count 20 (sym): 25.0% of the estimated work, 1 tasks done, 10s elapsed, ETA 30s", p.Status(time.Unix(1010, 0)))
	p.Stop()
	p.Stop() // idempotent
	// Work a journal held before the run is not in the rate: half done at
	// the start, three quarters after 10 s: 10 s to go.
	p = &Display{label: label, start: time.Unix(1000, 0), stopc: make(chan struct{})}
	p.Update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 200, Planned: 400, TasksDone: 1, Tasks: 3})
	p.Update(nqueens.Progress{N: 20, Method: nqueens.Sym, Done: 300, Planned: 400, TasksDone: 2, Tasks: 3})
	assert.Equal(t, "nqueens: count 20 (sym): 75.0% of the estimated work, 2 tasks done, 10s elapsed, ETA 10s", p.Status(time.Unix(1010, 0)))
}

// TestCount: a resumed count says so once; a stop removes the display and
// says how long it waits, if a second or more.
func TestCount(t *testing.T) {
	var stderr bytes.Buffer
	d := Start(&stderr, Options{Quiet: true}, func(nqueens.Progress) string { return "count" })
	f := d.Count(&stderr, "n20.journal")
	f(nqueens.Progress{N: 20, Tasks: 10, TasksDone: 4})
	f(nqueens.Progress{N: 20, Tasks: 10, TasksDone: 5})
	f(nqueens.Progress{N: 20, Stopping: 500 * time.Millisecond})
	f(nqueens.Progress{N: 20, Stopping: 30 * time.Second})
	assert.Equal(t, "nqueens: resuming from n20.journal: 4 of 10 tasks already counted\n"+
		"nqueens: stopping: waiting up to 30s for the running tasks to finish; Ctrl-C again to stop now\n", stderr.String())
}
