// Package progress shows how far a run of the nqueens library is, on a
// terminal (a bar, with mpb) or as status lines, with an ETA from the rate
// of the work done since the run started.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
	"golang.org/x/term"

	"github.com/nqueens/nqueens"
)

// Display shows the library's [nqueens.Progress] on stderr: a bar on a
// terminal, status lines when asked otherwise (and on a terminal of no
// width), nothing when quiet. Updates come once per finished task, never
// per node, so progress costs nothing measurable.
type Display struct {
	mu        sync.Mutex
	label     func(nqueens.Progress) string
	last      nqueens.Progress
	seen      bool
	base      float64 // the fraction done at the first update (resumed work)
	start     time.Time
	bar       *mpb.Bar
	container *mpb.Progress
	plainOut  io.Writer
	stopc     chan struct{}
	stopped   sync.Once
	wg        sync.WaitGroup
}

// Options say how to show progress.
type Options struct {
	// Plain asks for status lines when stderr is not a terminal.
	Plain bool
	// Quiet shows nothing.
	Quiet bool
	// Interval is the time between status lines (default 5 s).
	Interval time.Duration
}

// Start begins showing progress on stderr; label names the run from its
// latest progress.
func Start(stderr io.Writer, o Options, label func(nqueens.Progress) string) *Display {
	p := &Display{label: label, start: time.Now(), stopc: make(chan struct{})}
	if o.Quiet {
		return p
	}
	if terminalWidth(stderr) > 0 {
		p.container = mpb.New(mpb.WithOutput(stderr), mpb.WithWidth(40), mpb.WithRefreshRate(200*time.Millisecond))
		p.bar = p.container.AddBar(0,
			mpb.PrependDecorators(decor.Any(func(decor.Statistics) string { return p.labelNow() + " " }), decor.Percentage(decor.WCSyncSpace)),
			mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_MMSS), decor.Name(" ETA "), decor.Any(func(decor.Statistics) string { return p.eta(time.Now()) })),
		)
		return p
	}
	// Status lines with --progress, and on a terminal that reports no
	// width (a serial console, some CI runners), where a bar cannot be drawn.
	if o.Plain || IsTerminal(stderr) {
		p.plainOut = stderr
		interval := o.Interval
		if interval <= 0 {
			interval = 5 * time.Second
		}
		p.wg.Add(1)
		go p.plainLoop(interval)
	}
	return p
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth is w's width in columns if it is a terminal that reports
// one, else 0.
func terminalWidth(w io.Writer) int {
	if !IsTerminal(w) {
		return 0
	}
	width, _, err := term.GetSize(int(w.(*os.File).Fd()))
	if err != nil {
		return 0
	}
	return width
}

// Update takes the library's progress report.
func (p *Display) Update(pr nqueens.Progress) {
	p.mu.Lock()
	if !p.seen && pr.Planned > 0 {
		p.base = pr.Done / pr.Planned
	}
	p.last, p.seen = pr, true
	p.mu.Unlock()
	if p.bar != nil {
		p.bar.SetTotal(int64(pr.Planned), false)
		p.bar.SetCurrent(int64(pr.Done))
	}
}

// LineStart returns what brings a terminal's cursor to the start of a
// clean line after the bar is gone (the echo of a ^C may stand there), or
// "" without a bar.
func (p *Display) LineStart() string {
	if p.container != nil {
		return "\r\x1b[K"
	}
	return ""
}

// Messages returns where messages go while progress is shown: above the
// bar, through its container, so that neither garbles the other; else w.
func (p *Display) Messages(w io.Writer) io.Writer {
	if p.container != nil {
		return p.container
	}
	return w
}

// Rows returns where result rows go while progress is shown: through the
// bar's container when stdout is a terminal too (the bar's redraw would
// erase them otherwise), else stdout itself.
func (p *Display) Rows(stdout io.Writer) io.Writer {
	if p.container != nil && IsTerminal(stdout) {
		return p.container
	}
	return stdout
}

func (p *Display) labelNow() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.label(p.last)
}

// eta is the time left, from the rate of the work done since the first
// update (work a journal already held is not counted in the rate).
func (p *Display) eta(now time.Time) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	frac := 0.0
	if p.last.Planned > 0 {
		frac = p.last.Done / p.last.Planned
	}
	if frac <= p.base {
		return "unknown"
	}
	rate := (frac - p.base) / now.Sub(p.start).Seconds()
	return (time.Duration((1 - frac) / rate * float64(time.Second))).Round(time.Second).String()
}

func (p *Display) plainLoop(interval time.Duration) {
	defer p.wg.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stopc:
			return
		case <-t.C:
			p.mu.Lock()
			seen := p.seen
			p.mu.Unlock()
			if seen { // nothing to say before the run has planned
				fmt.Fprintln(p.plainOut, p.Status(time.Now()))
			}
		}
	}
}

// Status is the plain progress line at now.
func (p *Display) Status(now time.Time) string {
	eta := p.eta(now)
	p.mu.Lock()
	defer p.mu.Unlock()
	frac := 0.0
	if p.last.Planned > 0 {
		frac = p.last.Done / p.last.Planned
	}
	return fmt.Sprintf("nqueens: %s: %.1f%% of the estimated work, %d tasks done, %s elapsed, ETA %s",
		p.label(p.last), 100*frac, p.last.TasksDone, now.Sub(p.start).Round(time.Second), eta)
}

// Stop ends the display; it is safe to call more than once.
func (p *Display) Stop() {
	p.stopped.Do(func() {
		close(p.stopc)
		p.wg.Wait()
		if p.bar != nil {
			p.bar.Abort(true)
			p.container.Wait()
		}
	})
}

// Count is the progress callback of a count (nqueens.WithProgress): it
// updates the display, says on stderr (above the bar) that a count
// resumes from journal when the first update finds tasks done, and when a
// stop begins removes the bar (a stopped count has no progress to show,
// and the terminal's echoed ^C would garble its last line) and says how
// long it waits for the running tasks, if a second or more.
func (p *Display) Count(stderr io.Writer, journal string) func(nqueens.Progress) {
	first := true
	return func(pr nqueens.Progress) {
		if pr.Stopping > 0 {
			p.Stop()
			if pr.Stopping >= time.Second {
				fmt.Fprintf(stderr, "%snqueens: stopping: waiting up to %s for the running tasks to finish; Ctrl-C again to stop now\n", p.LineStart(), pr.Stopping)
			}
			return
		}
		if first && pr.TasksDone > 0 {
			fmt.Fprintf(p.Messages(stderr), "nqueens: resuming from %s: %d of %d tasks already counted\n", journal, pr.TasksDone, pr.Tasks)
		}
		first = false
		p.Update(pr)
	}
}
