package benchmark

import (
	"bytes"
	_ "embed"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Score is a method's headline figure in one workload: solutions per
// second on all the workers run and on one, with the spread of the cells
// (the least and the most over the median, in the all-workers row).
type Score struct {
	Method     string  `json:"method"`
	N          int     `json:"n"`
	Workers    int     `json:"workers"`
	SolsPerS   float64 `json:"solutions_per_second"`
	PerCore    float64 `json:"solutions_per_second_one_worker"`
	SpreadLow  float64 `json:"spread_low"`
	SpreadHigh float64 `json:"spread_high"`
	// Device names the device that counted (bench --device), "" on the
	// CPU's workers.
	Device string `json:"device,omitempty"`
}

// Scores returns a score per method of rows, in the rows' order.
func Scores(rows []Row) []Score {
	var out []Score
	for _, r := range rows {
		k := slices.IndexFunc(out, func(s Score) bool { return s.Method == r.Method })
		if k < 0 {
			out = append(out, Score{Method: r.Method, N: r.N})
			k = len(out) - 1
		}
		s := &out[k]
		s.Device = r.Device
		if r.Workers == 1 || r.Device != "" {
			s.PerCore = r.SolsPerS
		}
		if r.Workers >= s.Workers {
			s.Workers, s.SolsPerS = r.Workers, r.SolsPerS
			s.SpreadLow, s.SpreadHigh = 0, 0
			if len(r.Runs) > 0 && r.Median > 0 {
				// Time a count against the median: a faster cell is a
				// higher rate.
				s.SpreadLow = r.Median/slices.Max(r.Runs) - 1
				s.SpreadHigh = r.Median/slices.Min(r.Runs) - 1
			}
		}
	}
	return out
}

// Reference is another machine's scores in one workload.
type Reference struct {
	CPU, Workload, Date string
	LogicalCores        int
	Scores              []Score
}

// referenceCSV holds rows of bench --csv measured on the project's
// machines (bench/data has how): what bench compares with by default.
//
//go:embed reference.csv
var referenceCSV []byte

// References returns the machines of the built-in reference rows.
func References() ([]Reference, error) { return ReadReferences(bytes.NewReader(referenceCSV)) }

// ReadReferences reads rows that bench --csv wrote (any number of runs,
// machines and workloads) as one Reference per machine, workload and date.
func ReadReferences(r io.Reader) ([]Reference, error) {
	recs, err := csv.NewReader(r).ReadAll()
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 || !slices.Equal(recs[0], CSVHeader) {
		return nil, fmt.Errorf("not a bench --csv file (its header is not %s)", strings.Join(CSVHeader, ","))
	}
	var refs []Reference
	rows := map[int][]Row{}
	for i, rec := range recs[1:] {
		key := Reference{Date: rec[0], Workload: rec[1], CPU: rec[2]}
		key.LogicalCores, _ = strconv.Atoi(rec[3])
		k := slices.IndexFunc(refs, func(x Reference) bool {
			return x.Date == key.Date && x.Workload == key.Workload && x.CPU == key.CPU
		})
		if k < 0 {
			refs = append(refs, key)
			k = len(refs) - 1
		}
		var row Row
		row.Method = rec[6]
		var errs [3]error
		row.N, errs[0] = strconv.Atoi(rec[5])
		row.Workers, errs[1] = strconv.Atoi(rec[7])
		row.SolsPerS, errs[2] = strconv.ParseFloat(rec[10], 64)
		for _, e := range errs {
			if e != nil {
				return nil, fmt.Errorf("line %d: %w", i+2, e)
			}
		}
		rows[k] = append(rows[k], row)
	}
	for k := range refs {
		refs[k].Scores = Scores(rows[k])
	}
	return refs, nil
}

// WriteScores writes the headline scores and, for each reference of the
// same workload, this machine's scores over theirs.
func WriteScores(out io.Writer, wl Workload, scores []Score, refs []Reference) error {
	name := fmt.Sprintf("v%d-%s", Version, wl.Name)
	fmt.Fprintf(out, "\nscore (solutions per second, workload %s):\n", name)
	for _, s := range scores {
		if s.Device != "" { // one device: no scaling to show
			fmt.Fprintf(out, "  %-7s %.4g on %s (cells %+.0f%% to %+.0f%%)\n", s.Method, s.SolsPerS, s.Device, 100*s.SpreadLow, 100*s.SpreadHigh)
			continue
		}
		fmt.Fprintf(out, "  %-7s %.4g on %s (cells %+.0f%% to %+.0f%%), %.4g on one\n",
			s.Method, s.SolsPerS, plural(s.Workers, "worker"), 100*s.SpreadLow, 100*s.SpreadHigh, s.PerCore)
	}
	any := false
	for _, ref := range refs {
		if ref.Workload != name {
			continue
		}
		if !any {
			fmt.Fprintln(out, "compared with (this machine's score over theirs, all workers / one):")
			any = true
		}
		var parts []string
		for _, s := range scores {
			k := slices.IndexFunc(ref.Scores, func(x Score) bool { return x.Method == s.Method && x.N == s.N })
			if k < 0 {
				continue
			}
			r := ref.Scores[k]
			parts = append(parts, fmt.Sprintf("%s %s / %s", s.Method, ratio(s.SolsPerS, r.SolsPerS), ratio(s.PerCore, r.PerCore)))
		}
		fmt.Fprintf(out, "  %s, %d logical cores (%s): %s\n", ref.CPU, ref.LogicalCores, strings.SplitN(ref.Date, "T", 2)[0], strings.Join(parts, ", "))
	}
	if !any {
		fmt.Fprintf(out, "no reference rows for workload %s to compare with\n", name)
	}
	return nil
}

func ratio(a, b float64) string {
	if b == 0 || math.IsNaN(a/b) {
		return "-"
	}
	return fmt.Sprintf("%.2f×", a/b)
}

// plural is "1 worker", "2 workers".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
