//go:build !plot

package benchmark

import "github.com/nqueens/nqueens/internal/machine"

// PNGBuilt says whether this binary draws PNG plots: only when built with
// -tags plot (gonum/plot and its fonts: about 130 MB of modules the plain
// binary does without). SVG charts need none of them ([Plot]).
const PNGBuilt = false

func plotPNG(string, machine.Machine, Workload, []Row, []string) error { return ErrNoPNG }
