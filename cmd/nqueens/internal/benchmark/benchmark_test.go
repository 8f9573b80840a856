package benchmark

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/machine"
)

func TestMedianUnit(t *testing.T) {
	assert.InDelta(t, 2.0, Median([]float64{3, 1, 2}), 0)
	assert.InDelta(t, 2.5, Median([]float64{4, 1, 2, 3}), 0)
	assert.Equal(t, "pairs", NodeUnit(nqueens.Join))
	assert.Equal(t, "queens", NodeUnit(nqueens.Sym))
	assert.NotEmpty(t, machine.Detect().CPU)
}

// TestRun times a tiny workload and writes it in every format. Cells of
// 200 ms: with 20 ms ones a busy CI machine that paused the calibrating
// run made a cell of one repetition.
func TestRun(t *testing.T) {
	wl := Workload{"tiny", []Case{{8, nqueens.Join}, {8, nqueens.Sym}}, Case{6, nqueens.Sym}, 2, 200 * time.Millisecond}
	rows, err := Run(context.Background(), wl, 2, nil)
	require.NoError(t, err)
	require.Len(t, rows, 4)
	for _, r := range rows {
		assert.Equal(t, "92", r.Total)
		assert.Len(t, r.Runs, 2)
		assert.Greater(t, r.PerCell, 1, "n = 8 takes far less than a cell: repeated")
		assert.GreaterOrEqual(t, r.Runs[len(r.Runs)-1]*float64(r.PerCell), 0.2*0.999, "the last cell lasted at least MinCell")
	}
	sc := Scores(rows)
	require.Len(t, sc, 2)
	assert.Equal(t, "join", sc[0].Method)
	assert.Equal(t, 2, sc[0].Workers)
	assert.Positive(t, sc[0].PerCore)
	for _, f := range Formats {
		var b bytes.Buffer
		require.NoError(t, Write(&b, f, machine.Detect(), wl, rows, nil), f)
		assert.NotEmpty(t, b.String(), f)
		if f == "json" {
			assert.True(t, json.Valid(b.Bytes()))
		}
	}
}

// TestSVG: the chart is well-formed XML with both panels, a line and
// points per series, the ideal, and the machine in its title.
func TestSVG(t *testing.T) {
	rows := []Row{
		{N: 16, Method: "join", Workers: 1, Speedup: 1, Efficiency: 1},
		{N: 16, Method: "join", Workers: 2, Speedup: 1.9, Efficiency: 0.95},
		{N: 16, Method: "join", Workers: 4, Speedup: 3.5, Efficiency: 0.875},
		{N: 15, Method: "sym <&>", Workers: 1, Speedup: 1, Efficiency: 1},
		{N: 15, Method: "sym <&>", Workers: 2, Speedup: 2.1, Efficiency: 1.05},
	}
	m := machine.Detect()
	var b bytes.Buffer
	require.NoError(t, WriteSVG(&b, m, Quick, rows, []string{"the machine was busy when bench started (load average 2.08 over the last minute, on 2 CPUs): other work slows the counts"}))
	d := xml.NewDecoder(bytes.NewReader(b.Bytes()))
	counts := map[string]int{}
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "well-formed XML")
		switch e := tok.(type) {
		case xml.StartElement:
			counts[e.Name.Local]++
		case xml.CharData:
			text.Write(e)
		}
	}
	assert.Equal(t, 1, counts["svg"])
	assert.Equal(t, 2*3, counts["polyline"], "two panels: the ideal and two series each")
	assert.Equal(t, 2*5, counts["circle"], "a point per row per panel")
	for _, s := range []string{"speedup over 1 worker", "parallel efficiency", "workers", "n = 16 join", "n = 15 sym <&>", m.CPU, "nqueens bench v",
		fmt.Sprintf("counted on up to 4 workers of the %d CPUs this process could use", m.GOMAXPROCS),
		"caveat: the machine was busy when bench started (load average 2.08 over the last minute, on 2 CPUs)"} {
		assert.Contains(t, text.String(), s)
	}
	// A long caveat (speeds that varied in many rows) is wrapped into
	// lines that fit the chart, which grows to hold them.
	long := "the machine's speed varied while bench ran (" + strings.Repeat("n = 16 join on 2 workers: cells from -21% to +7% of the median; ", 5) + "more than ±10%): run bench again"
	b.Reset()
	require.NoError(t, WriteSVG(&b, m, Quick, rows, []string{long}))
	lines := regexp.MustCompile(`fill="#b00" xml:space="preserve">([^<]*)</text>`).FindAllStringSubmatch(b.String(), -1)
	require.Greater(t, len(lines), 2, "wrapped")
	for _, l := range lines {
		assert.LessOrEqual(t, len(html.UnescapeString(l[1])), caveatWidth, "a caveat line within the chart: %q", l[1])
	}
	assert.Contains(t, b.String(), fmt.Sprintf(`height="%d"`, 460+13*(len(lines)-1)))
	single := []Row{{N: 16, Method: "join", Workers: 1, Speedup: 1, Efficiency: 1}}
	b.Reset()
	require.NoError(t, WriteSVG(&b, m, Quick, single, nil))
	assert.Contains(t, b.String(), "counted on up to 1 worker of the")
	path := filepath.Join(t.TempDir(), "s.svg")
	require.NoError(t, Plot(path, m, Quick, rows, []string{long}))
	if PNGBuilt {
		require.NoError(t, Plot(filepath.Join(t.TempDir(), "s.png"), m, Quick, rows, nil))
	} else {
		assert.ErrorIs(t, Plot(filepath.Join(t.TempDir(), "s.png"), m, Quick, rows, nil), ErrNoPNG)
	}
	// Rasterized where a converter is installed (CI installs librsvg2-bin).
	if conv, err := exec.LookPath("rsvg-convert"); err == nil {
		png := filepath.Join(t.TempDir(), "s.png")
		out, err := exec.Command(conv, "-o", png, path).CombinedOutput()
		require.NoError(t, err, "rsvg-convert: %s", out)
		b, err := os.ReadFile(png)
		require.NoError(t, err)
		assert.True(t, bytes.HasPrefix(b, []byte("\x89PNG")))
	} else if os.Getenv("NQUEENS_REQUIRE_RSVG") != "" {
		t.Fatal("NQUEENS_REQUIRE_RSVG is set but rsvg-convert is not installed")
	}
}

// TestReferences: the built-in reference rows read, and a comparison
// names the machine and the ratios of the scores.
func TestReferences(t *testing.T) {
	refs, err := References()
	require.NoError(t, err)
	for _, r := range refs {
		assert.NotEmpty(t, r.CPU)
		assert.NotEmpty(t, r.Scores)
	}
	in := strings.Join(CSVHeader, ",") + "\n" +
		"2026-12-03T00:00:00Z,v4-quick,Other CPU,8,go1.26,16,join,1,1,1,1000,1,1,pairs\n" +
		"2026-12-03T00:00:00Z,v4-quick,Other CPU,8,go1.26,16,join,8,1,1,6000,6,0.75,pairs\n"
	other, err := ReadReferences(strings.NewReader(in))
	require.NoError(t, err)
	require.Len(t, other, 1)
	assert.Equal(t, []Score{{Method: "join", N: 16, Workers: 8, SolsPerS: 6000, PerCore: 1000}}, other[0].Scores)
	var b bytes.Buffer
	require.NoError(t, WriteScores(&b, Quick, []Score{{Method: "join", N: 16, Workers: 2, SolsPerS: 3000, PerCore: 1500}}, other))
	assert.Contains(t, b.String(), "Other CPU, 8 logical cores (2026-12-03): join 0.50× / 1.50×")
	_, err = ReadReferences(strings.NewReader("a,b\n"))
	assert.ErrorContains(t, err, "not a bench --csv file")
}

// TestCheckPlot: .svg always, .png with -tags plot, nothing else.
func TestCheckPlot(t *testing.T) {
	assert.NoError(t, CheckPlot("s.svg"))
	assert.NoError(t, CheckPlot("S.SVG"))
	assert.ErrorContains(t, CheckPlot("s.pdf"), "--plot s.pdf: the file name must end in .svg or .png")
	if PNGBuilt {
		assert.NoError(t, CheckPlot("s.png"))
	} else {
		assert.ErrorIs(t, CheckPlot("s.png"), ErrNoPNG)
	}
}
