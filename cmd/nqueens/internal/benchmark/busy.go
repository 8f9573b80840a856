package benchmark

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Load is the machine's load average over the last minute, and whether
// the system tells it (Linux's /proc/loadavg).
func Load() (float64, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, false
	}
	return parseLoad(string(b))
}

func parseLoad(s string) (float64, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	x, err := strconv.ParseFloat(f[0], 64)
	return x, err == nil && x >= 0
}

// BusyLoad is the load average at which bench calls the machine busy:
// half a core's worth of other work skews a timing on every core.
const BusyLoad = 0.5

// MaxSpread is the furthest a cell may lie from its row's median before
// bench says the machine's speed varied: ±10%.
const MaxSpread = 0.10

// Warnings says, as hyperfine does of outliers, what makes the timings
// doubtful: a machine already busy when bench started (load, the load
// average then, ≥ [BusyLoad]; known says the system told it), and rows
// whose cells lie more than [MaxSpread] from their median (the first
// three such rows, and how many more).
func Warnings(rows []Row, load float64, known bool, cores int) []string {
	var w []string
	if known && load >= BusyLoad {
		w = append(w, fmt.Sprintf("the machine was busy when bench started (load average %.2f over the last minute, on %d CPUs): other work slows the counts and hides the scaling; run bench on an idle machine", load, cores))
	}
	var spread []string
	for _, r := range rows {
		if len(r.Runs) < 2 || r.Median <= 0 {
			continue
		}
		lo, hi := slices.Min(r.Runs)/r.Median-1, slices.Max(r.Runs)/r.Median-1
		if lo < -MaxSpread || hi > MaxSpread {
			where := plural(r.Workers, "worker")
			if r.Device != "" {
				where = r.Device
			}
			spread = append(spread, fmt.Sprintf("n = %d %s on %s: cells from %+.0f%% to %+.0f%% of the median", r.N, r.Method, where, 100*lo, 100*hi))
		}
	}
	if len(spread) > 0 {
		more := ""
		if len(spread) > 3 {
			more = fmt.Sprintf(" and %d more rows", len(spread)-3)
			spread = spread[:3]
		}
		w = append(w, fmt.Sprintf("the machine's speed varied while bench ran (%s%s; more than ±%.0f%%): run bench again on an idle machine, or with a longer --cell",
			strings.Join(spread, "; "), more, 100*MaxSpread))
	}
	return w
}
