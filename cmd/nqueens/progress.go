package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/partition"
)

// progressFlags are --progress and --quiet, shared by count, table and bench.
type progressFlags struct {
	plain    bool
	quiet    bool
	interval time.Duration
}

func (f *progressFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.plain, "progress", false, "when stderr is not a terminal, print a status line every few seconds")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print nothing but the result (no progress bar)")
	fs.DurationVar(&f.interval, "progress-interval", 5*time.Second, "time between --progress status lines")
	_ = fs.MarkHidden("progress-interval")
}

// progress shows how much of the estimated work is done. Work is measured
// by the planner's cost estimates of finished tasks, not their number, since
// task sizes vary a lot. Updates happen once per finished task, never per
// node, so progress costs nothing measurable.
type progress struct {
	mu        sync.Mutex
	label     string
	total     uint64 // estimated cost of all tasks
	done      uint64 // estimated cost of finished tasks
	tasks     int
	start     time.Time
	bar       *mpb.Bar
	container *mpb.Progress
	plainOut  io.Writer
	stopc     chan struct{}
	stopped   sync.Once
	wg        sync.WaitGroup
}

// start begins showing progress on stderr: a bar on a terminal, status
// lines with --progress otherwise (and on a terminal of no width), nothing
// with --quiet.
func (f progressFlags) start(stderr io.Writer, label string, totalCost uint64) *progress {
	p := &progress{label: label, total: max(totalCost, 1), start: time.Now(), stopc: make(chan struct{})}
	if f.quiet {
		return p
	}
	if terminalWidth(stderr) > 0 {
		p.container = mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
		p.bar = p.container.AddBar(int64(p.total),
			mpb.PrependDecorators(decor.Name(label+" "), decor.Percentage(decor.WCSyncSpace)),
			mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_MMSS), decor.Name(" ETA "), decor.AverageETA(decor.ET_STYLE_MMSS)),
		)
		return p
	}
	// Status lines with --progress, and on a terminal that reports no
	// width (a serial console, some CI runners), where a bar cannot be drawn.
	if f.plain || isTerminal(stderr) {
		p.plainOut = stderr
		interval := f.interval
		if interval <= 0 {
			interval = 5 * time.Second
		}
		p.wg.Add(1)
		go p.plainLoop(interval)
	}
	return p
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is w's width in columns if it is a terminal that reports
// one, else 0.
func terminalWidth(w io.Writer) int {
	if !isTerminal(w) {
		return 0
	}
	width, _, err := term.GetSize(int(w.(*os.File).Fd()))
	if err != nil {
		return 0
	}
	return width
}

// taskDone returns the engine callback that accounts for plan's tasks.
func (p *progress) taskDone(plan *partition.Plan) func(engine.Result) {
	return func(r engine.Result) {
		cost := plan.Tasks[r.Task].Cost
		p.mu.Lock()
		p.done += cost
		p.tasks++
		p.mu.Unlock()
		if p.bar != nil {
			p.bar.IncrInt64(int64(cost))
		}
	}
}

func (p *progress) plainLoop(interval time.Duration) {
	defer p.wg.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stopc:
			return
		case <-t.C:
			fmt.Fprintln(p.plainOut, p.status(time.Now()))
		}
	}
}

// status is the plain progress line.
func (p *progress) status(now time.Time) string {
	p.mu.Lock()
	done, tasks := p.done, p.tasks
	p.mu.Unlock()
	frac := float64(done) / float64(p.total)
	elapsed := now.Sub(p.start).Round(time.Second)
	eta := "unknown"
	if frac > 0 {
		eta = (time.Duration(float64(now.Sub(p.start)) * (1 - frac) / frac)).Round(time.Second).String()
	}
	return fmt.Sprintf("nqueens: %s: %.1f%% of the estimated work, %d tasks done, %s elapsed, ETA %s",
		p.label, 100*frac, tasks, elapsed, eta)
}

// stop ends the display; it is safe to call more than once.
func (p *progress) stop() {
	p.stopped.Do(func() {
		close(p.stopc)
		p.wg.Wait()
		if p.bar != nil {
			p.bar.Abort(true)
			p.container.Wait()
		}
	})
}
