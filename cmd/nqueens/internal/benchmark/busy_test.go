package benchmark

import (
	"strings"
	"testing"
)

// TestWarnings: a busy start and cells spread past ±10% are said; a quiet
// run says nothing.
func TestWarnings(t *testing.T) {
	quiet := []Row{{N: 16, Method: "sym", Workers: 1, Runs: []float64{1.00, 1.02, 0.99}, Median: 1.00}}
	if w := Warnings(quiet, 0.1, true, 2); len(w) != 0 {
		t.Errorf("Warnings(quiet) = %q, want none", w)
	}
	if w := Warnings(quiet, 1.6, false, 2); len(w) != 0 {
		t.Errorf("Warnings(load unknown) = %q, want none", w)
	}
	w := Warnings(quiet, 1.6, true, 2)
	if len(w) != 1 || !strings.Contains(w[0], "busy when bench started (load average 1.60 over the last minute, on 2 CPUs)") {
		t.Errorf("Warnings(load 1.6) = %q", w)
	}
	spread := append(quiet, Row{N: 16, Method: "sym", Workers: 2, Runs: []float64{0.50, 0.43, 0.51}, Median: 0.50})
	w = Warnings(spread, 0, true, 2)
	if len(w) != 1 || !strings.Contains(w[0], "n = 16 sym on 2 workers: cells from -14% to +2% of the median") {
		t.Errorf("Warnings(spread) = %q", w)
	}
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{{"0.52 0.58 0.59 1/189 4242\n", 0.52, true}, {"", 0, false}, {"x", 0, false}} {
		if got, ok := parseLoad(tc.in); got != tc.want || ok != tc.ok {
			t.Errorf("parseLoad(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
