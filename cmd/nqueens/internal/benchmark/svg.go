package benchmark

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/regular"
	"github.com/nqueens/nqueens/internal/version"
)

// CheckPlot refuses, before a benchmark runs, a plot file Plot cannot
// write: a name not ending in .svg or .png, or .png in a binary built
// without -tags plot ([ErrNoPNG]).
func CheckPlot(path string) error {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".png" && !PNGBuilt:
		return fmt.Errorf("--plot %s: %w", path, ErrNoPNG)
	case ext != ".svg" && ext != ".png":
		return fmt.Errorf("--plot %s: the file name must end in .svg or .png", path)
	}
	return nil
}

// Plot draws the benchmark's scaling to path: an SVG chart (any binary)
// or, built with -tags plot, a PNG one. The SVG has two panels, speedup
// over one worker and parallel efficiency, against workers, one line per
// (n, method) and the ideal as a dashed line, labelled axes, and the
// machine, workload and nqueens version (and commit) in its title, the
// CPUs the counts used against the host's, and caveats (bench's warnings:
// a busy machine, a varying speed) under it.
func Plot(path string, m machine.Machine, wl Workload, rows []Row, caveats []string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		return plotPNG(path, m, wl, rows, caveats)
	case ".svg":
	default:
		return fmt.Errorf("%s: a chart is an .svg or .png file", path)
	}
	return writeChart(path, func(w io.Writer) error { return WriteSVG(w, m, wl, rows, caveats) })
}

// subtitle says what the counts ran on: the most workers a row used, of
// the CPUs this process could use, and the host's cores where they
// differ (a VM or a container may use 2 of 254), the Go version and
// nqueens'.
func subtitle(m machine.Machine, rows []Row) string {
	most := 1
	for _, r := range rows {
		most = max(most, r.Workers)
	}
	s := fmt.Sprintf("counted on up to %s of the %d CPUs this process could use", plural(most, "worker"), m.GOMAXPROCS)
	if !m.Agree() {
		s += fmt.Sprintf(" (cpuid reads %d logical cores, %d physical: the host's)", m.LogicalCores, m.PhysicalCores)
	}
	s += fmt.Sprintf("; %s; nqueens %s", m.Go, version.Version)
	if c := version.Commit(); c != "" {
		s += " (" + c + ")"
	}
	return s
}

// caveatLines are a warning as a chart shows it: "caveat: " and its text
// up to the first colon's explanation, in lines of at most
// caveatWidth characters (broken at spaces) that fit the chart's width.
func caveatLines(w string) []string {
	if i := strings.Index(w, "): "); i > 0 {
		w = w[:i+1]
	}
	var lines []string
	line := "caveat:"
	for _, word := range strings.Fields(w) {
		if len(line)+1+len(word) > caveatWidth {
			lines = append(lines, line)
			line = " "
		}
		line += " " + word
	}
	return append(lines, line)
}

// caveatWidth is the most characters of a caveat's line: 960 pixels of
// 11-pixel text with a margin.
const caveatWidth = 130

// writeChart writes a chart to path, a regular file (or a new one: a FIFO
// or a device is refused at once, never waited on).
func writeChart(path string, write func(io.Writer) error) error {
	f, _, err := regular.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = write(w)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ErrNoPNG is Plot's error for a .png file in a binary built without
// -tags plot.
var ErrNoPNG = errors.New("PNG charts need a binary built with go build -tags plot ./cmd/nqueens (it adds gonum/plot, about 130 MB of modules); an .svg file needs nothing more")

// svgColors are the series' colours (Okabe-Ito, distinguishable in
// colour blindness).
var svgColors = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

// WriteSVG writes the chart [Plot] draws as SVG: a title, the caveats, a
// panel of speedup and one of parallel efficiency, and the legend.
func WriteSVG(w io.Writer, m machine.Machine, wl Workload, rows []Row, caveats []string) error {
	var lines []string
	for _, c := range caveats {
		lines = append(lines, caveatLines(c)...)
	}
	// The panels move down for every caveat line past the first.
	extra := 13 * max(0, len(lines)-1)
	ch := &svgChart{top: 90 + extra, series: map[string][]Row{}, maxW: 1}
	height := 460 + extra
	maxS := 1.0
	for _, r := range rows {
		maxS = math.Max(maxS, r.Speedup)
		key := fmt.Sprintf("n = %d %s", r.N, r.Method)
		if r.Device != "" {
			key += " (" + r.Device + ")"
		}
		if _, ok := ch.series[key]; !ok {
			ch.order = append(ch.order, key)
		}
		ch.series[key] = append(ch.series[key], r)
		ch.maxW = max(ch.maxW, r.Workers)
	}
	b := &ch.b
	fmt.Fprintf(b, `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">
<rect width="100%%" height="100%%" fill="white"/>
`, svgWidth, height, svgWidth, height)
	title := fmt.Sprintf("nqueens bench v%d-%s on %s", Version, wl.Name, m.CPU)
	sub := subtitle(m, rows)
	fmt.Fprintf(b, "<text x=\"%d\" y=\"30\" font-size=\"18\" text-anchor=\"middle\">%s</text>\n", svgWidth/2, html.EscapeString(title))
	fmt.Fprintf(b, "<text x=\"%d\" y=\"52\" font-size=\"13\" text-anchor=\"middle\" fill=\"#444\">%s</text>\n", svgWidth/2, html.EscapeString(sub))
	for i, line := range lines {
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"#b00\" xml:space=\"preserve\">%s</text>\n", svgWidth/2, 68+13*i, html.EscapeString(line))
	}
	ch.panel(svgLefts[0], svgPanel{"speedup over 1 worker", math.Max(float64(ch.maxW), math.Ceil(maxS*1.1)), func(r Row) float64 { return r.Speedup }, func(x float64) float64 { return x },
		func(v float64) string { return fmt.Sprintf("%g×", v) }})
	ch.panel(svgLefts[1], svgPanel{"parallel efficiency", 1.2, func(r Row) float64 { return r.Efficiency }, func(float64) float64 { return 1 },
		func(v float64) string { return fmt.Sprintf("%.0f%%", 100*v) }})
	ch.legend()
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// The chart's size: its width, each panel's, and where the panels start.
const (
	svgWidth             = 960
	svgPanelW, svgPanelH = 360, 300
)

var svgLefts = [2]float64{80, 560}

// svgChart is a chart being written: its series in order, the panels'
// top and the most workers (the x axis's end).
type svgChart struct {
	b      strings.Builder
	top    int
	order  []string
	series map[string][]Row
	maxW   int
}

// svgPanel is what one panel plots: its label, its y axis's end, each
// row's value, the ideal line and the y ticks' text.
type svgPanel struct {
	label string
	max   float64
	value func(Row) float64
	ideal func(float64) float64
	tick  func(float64) string
}

// x is where wk workers go in the panel at left: a log2 scale, with a
// margin at each end.
func (ch *svgChart) x(left, wk float64) float64 {
	span := math.Max(1, math.Log2(float64(ch.maxW)))
	return left + svgPanelW*(0.08+0.84*math.Log2(wk)/span)
}

// panel writes one panel at left: grid, ticks, frame, labels, the ideal
// dashed and each series.
func (ch *svgChart) panel(left float64, p svgPanel) {
	b, top := &ch.b, ch.top
	ys := func(v float64) float64 { return float64(top+svgPanelH) - v/p.max*svgPanelH }
	for _, v := range yTicks(p.max) {
		y := ys(v)
		fmt.Fprintf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", left, y, left+svgPanelW, y)
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">%s</text>\n", left-6, y+4, p.tick(v))
	}
	for wk := 1; wk <= ch.maxW; wk *= 2 {
		x := ch.x(left, float64(wk))
		fmt.Fprintf(b, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, top, x, top+svgPanelH)
		fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%d</text>\n", x, top+svgPanelH+18, wk)
	}
	fmt.Fprintf(b, "<rect x=\"%.1f\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n", left, top, svgPanelW, svgPanelH)
	fmt.Fprintf(b, "<text x=\"%.1f\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">workers</text>\n", left+svgPanelW/2, top+svgPanelH+38)
	fmt.Fprintf(b, "<text transform=\"translate(%.1f %d) rotate(-90)\" font-size=\"13\" text-anchor=\"middle\">%s</text>\n", left-52, top+svgPanelH/2, p.label)
	fmt.Fprintf(b, "<polyline points=\"%.1f,%.1f %.1f,%.1f\" fill=\"none\" stroke=\"#888\" stroke-dasharray=\"6 4\"/>\n",
		ch.x(left, 1), ys(p.ideal(1)), ch.x(left, float64(ch.maxW)), ys(p.ideal(float64(ch.maxW))))
	for i, key := range ch.order {
		color := svgColors[i%len(svgColors)]
		var pts []string
		for _, r := range ch.series[key] {
			v := math.Min(math.Max(p.value(r), 0), p.max)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", ch.x(left, float64(r.Workers)), ys(v)))
		}
		fmt.Fprintf(b, "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", strings.Join(pts, " "), color)
		for _, pt := range pts {
			x, y, _ := strings.Cut(pt, ",")
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"3.5\" fill=\"%s\"/>\n", x, y, color)
		}
	}
}

// legend writes the legend under the panels: the ideal, then each
// series, wrapping at the chart's right edge.
func (ch *svgChart) legend() {
	ly := float64(ch.top + svgPanelH + 62)
	lx := svgLefts[0]
	items := append([]string{"ideal"}, ch.order...)
	for i, key := range items {
		color, dash := "#888", ` stroke-dasharray="6 4"`
		if i > 0 {
			color, dash = svgColors[(i-1)%len(svgColors)], ""
		}
		fmt.Fprintf(&ch.b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", lx, ly, lx+24, ly, color, dash)
		fmt.Fprintf(&ch.b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\">%s</text>\n", lx+30, ly+4, html.EscapeString(key))
		lx += 40 + 7*float64(len(key))
		if lx > svgWidth-120 {
			lx, ly = svgLefts[0], ly+18
		}
	}
}

// yTicks returns about five round tick values from 0 to max.
func yTicks(max float64) []float64 {
	step := math.Pow(10, math.Floor(math.Log10(max/5)))
	for _, f := range []float64{1, 2, 5, 10} {
		if max/(step*f) <= 6 {
			step *= f
			break
		}
	}
	var ts []float64
	for v := 0.0; v <= max+1e-9; v += step {
		ts = append(ts, math.Round(v*1000)/1000)
	}
	return ts
}
