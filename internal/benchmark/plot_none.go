//go:build !plot

package benchmark

import (
	"errors"

	"github.com/nqueens/nqueens/internal/machine"
)

// PlotBuilt says whether this binary draws plots: only when built with
// -tags plot (gonum/plot, its fonts and PDF writers: about 130 MB of
// modules the plain binary does without).
const PlotBuilt = false

// ErrNoPlot is Plot's error in a binary built without plotting.
var ErrNoPlot = errors.New("this nqueens was built without plotting: build it with go build -tags plot ./cmd/nqueens (it adds gonum/plot, about 130 MB of modules)")

// Plot needs -tags plot.
func Plot(string, machine.Machine, Workload, []Row) error { return ErrNoPlot }
