//go:build plot

package benchmark

import (
	"fmt"
	"image/color"
	"io"
	"strings"

	"github.com/nqueens/nqueens/internal/machine"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// PNGBuilt says whether this binary draws PNG plots: built with -tags
// plot, which links gonum/plot and its fonts (about 130 MB of modules the
// plain binary does without; SVG needs none of them, see [Plot]).
const PNGBuilt = true

// plotPNG draws speedup against workers, one line per (n, method), with
// the ideal speedup as a dashed diagonal, to a .png file.
func plotPNG(path string, m machine.Machine, wl Workload, rows []Row, caveats []string) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("nqueens bench v%d-%s: %s\n%s", Version, wl.Name, m.CPU, subtitle(m, rows))
	for _, c := range caveats {
		p.Title.Text += "\n" + strings.Join(caveatLines(c), "\n")
	}
	p.X.Label.Text = "workers"
	p.Y.Label.Text = "speedup over 1 worker"
	p.Legend.Top = true
	p.Legend.Left = true
	p.Add(plotter.NewGrid())

	maxW := 1
	var order []string
	series := map[string]plotter.XYs{}
	for _, r := range rows {
		key := fmt.Sprintf("n=%d %s", r.N, r.Method)
		if _, ok := series[key]; !ok {
			order = append(order, key)
		}
		series[key] = append(series[key], plotter.XY{X: float64(r.Workers), Y: r.Speedup})
		maxW = max(maxW, r.Workers)
	}
	ideal, err := plotter.NewLine(plotter.XYs{{X: 1, Y: 1}, {X: float64(maxW), Y: float64(maxW)}})
	if err != nil {
		return err
	}
	ideal.Color = color.Gray{Y: 120}
	ideal.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(ideal)
	p.Legend.Add("ideal", ideal)
	for i, key := range order {
		l, pts, err := plotter.NewLinePoints(series[key])
		if err != nil {
			return err
		}
		l.Color = plotutil.Color(i)
		pts.Color = plotutil.Color(i)
		pts.Shape = draw.CircleGlyph{}
		p.Add(l, pts)
		p.Legend.Add(key, l, pts)
	}
	p.X.Min, p.Y.Min = 0, 0
	p.X.Max, p.Y.Max = float64(maxW)+0.5, float64(maxW)+0.5
	wt, err := p.WriterTo(6*vg.Inch, 4.5*vg.Inch, "png")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return writeChart(path, func(w io.Writer) error {
		_, err := wt.WriteTo(w)
		return err
	})
}
