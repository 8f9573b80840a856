package main

import (
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/progress"
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

// start begins showing progress on stderr as the flags ask.
func (f progressFlags) start(stderr io.Writer, label func(nqueens.Progress) string) *progress.Display {
	return progress.Start(stderr, progress.Options{Plain: f.plain, Quiet: f.quiet, Interval: f.interval}, label)
}
