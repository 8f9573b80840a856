package report

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/known"
)

// Plan is `plan --json`'s object: a count's cost before it starts. Work is
// an exact decimal string; memory in bytes; the core-seconds only with a
// sample.
type Plan struct {
	N                int      `json:"n"`
	Piece            string   `json:"piece,omitempty"`
	Torus            bool     `json:"torus,omitempty"`
	Method           string   `json:"method"`
	Tasks            int      `json:"tasks"`
	Work             string   `json:"estimated_work"`
	Fingerprint      string   `json:"plan"`
	Shards           int      `json:"shards"`
	ShardTasksMin    int      `json:"tasks_per_shard_min"`
	ShardTasksMean   float64  `json:"tasks_per_shard_mean"`
	ShardTasksMax    int      `json:"tasks_per_shard_max"`
	EmptyShards      int      `json:"empty_shards"`
	Workers          int      `json:"workers"`
	Hosts            int      `json:"host_goroutines,omitempty"`
	ShardMemory      int64    `json:"memory_per_shard"`
	WorkerMemory     int64    `json:"memory_per_worker"`
	Sampled          int      `json:"sampled_tasks,omitempty"`
	SampledParts     int      `json:"sampled_in_parts,omitempty"`
	MaxThin          int      `json:"max_thinning,omitempty"`
	SampleSeconds    float64  `json:"sample_seconds,omitempty"`
	Calibrated       bool     `json:"calibrated,omitempty"`
	Modeled          bool     `json:"modeled,omitempty"`
	CutoffSeconds    float64  `json:"sample_cutoff_seconds,omitempty"`
	CoreSeconds      *float64 `json:"estimated_core_seconds,omitempty"`
	CoreSecondsLow   *float64 `json:"estimated_core_seconds_low,omitempty"`
	CoreSecondsHigh  *float64 `json:"estimated_core_seconds_high,omitempty"`
	ShardCoreSeconds *float64 `json:"estimated_core_seconds_per_shard,omitempty"`
	Devices          []string `json:"devices,omitempty"`
	DeviceSeconds    *float64 `json:"device_seconds,omitempty"`
	DeviceLow        *float64 `json:"device_seconds_low,omitempty"`
	DeviceHigh       *float64 `json:"device_seconds_high,omitempty"`
	DeviceSampled    int      `json:"device_sampled_tasks,omitempty"`
	DeviceBoard      int      `json:"device_board,omitempty"`
}

// PlanOf is the report of an estimate.
func PlanOf(e nqueens.Cost) Plan {
	p := Plan{N: e.N, Method: string(e.Method), Tasks: e.Tasks, Work: strconv.FormatUint(e.Work, 10), Fingerprint: e.Fingerprint,
		Shards: e.Shards, ShardTasksMin: e.ShardTasksMin, ShardTasksMax: e.ShardTasksMax, EmptyShards: e.EmptyShards,
		Workers: e.Workers, Hosts: e.Hosts, ShardMemory: e.ShardMemory, WorkerMemory: e.WorkerMemory}
	if e.Piece != nqueens.Queen {
		p.Piece = string(e.Piece)
	}
	p.Torus = e.Torus
	p.ShardTasksMean = round3(float64(e.Tasks) / float64(e.Shards))
	cs, lo, hi, per := round3(e.CoreSeconds), round3(e.CoreSecondsLow), round3(e.CoreSecondsHigh), round3(e.CoreSeconds/float64(e.Shards))
	switch {
	case e.Cutoff > 0:
		p.CutoffSeconds, p.CoreSecondsLow = round3(e.Cutoff.Seconds()), &lo
		if e.CoreSecondsHigh > 0 {
			p.CoreSecondsHigh = &hi
		}
	case e.Sampled > 0 || e.Modeled:
		p.Sampled, p.SampleSeconds = e.Sampled, round3(e.SampleTime.Seconds())
		p.SampledParts, p.MaxThin, p.Calibrated, p.Modeled = e.SampledParts, e.MaxThin, e.Calibrated, e.Modeled
		p.CoreSeconds, p.ShardCoreSeconds = &cs, &per
		if e.CoreSecondsHigh > 0 {
			p.CoreSecondsLow, p.CoreSecondsHigh = &lo, &hi
		}
	}
	if e.DeviceSeconds > 0 {
		ds, dl, dh := round3(e.DeviceSeconds), round3(e.DeviceSecondsLow), round3(e.DeviceSecondsHigh)
		p.Devices, p.DeviceSeconds, p.DeviceSampled, p.DeviceBoard = e.Devices, &ds, e.DeviceSampled, e.DeviceBoard
		if e.DeviceSecondsHigh > 0 {
			p.DeviceLow, p.DeviceHigh = &dl, &dh
		}
	}
	return p
}

func round3(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return v
}

// WritePlan writes the estimate as a few lines of text; sample is the
// sample's length asked for (an estimate with no time for a sample asked
// was stopped): the plan and its shards, the memory, the time (unknown,
// modelled or not estimated; the sample's or calibration's), the device.
func WritePlan(w io.Writer, e nqueens.Cost, sample time.Duration) error {
	p := &printer{w: w}
	p.planLines(e)
	p.timeUnsampled(e, sample)
	if e.Sampled > 0 {
		p.timeSampled(e)
	}
	if e.DeviceSeconds > 0 {
		p.deviceLine(e)
	}
	if p.err != nil {
		return fmt.Errorf("writing the plan: %w", p.err)
	}
	return nil
}

// printer writes formatted text until a write fails, keeping the first
// error.
type printer struct {
	w   io.Writer
	err error
}

func (p *printer) pr(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// planLines writes the plan's line, its shards' and its memory's.
func (p *printer) planLines(e nqueens.Cost) {
	p.pr("plan %d%s (%s): %s tasks, plan %s\n", e.N, pieceSuffix(e.Piece, e.Torus), e.Method,
		humanize.Comma(int64(e.Tasks)), e.Fingerprint)
	if e.Shards > 1 {
		p.pr("shards: %s, of %s to %s tasks (%s on average)", humanize.Comma(int64(e.Shards)), humanize.Comma(int64(e.ShardTasksMin)),
			humanize.Comma(int64(e.ShardTasksMax)), strconv.FormatFloat(float64(e.Tasks)/float64(e.Shards), 'f', 1, 64))
		if e.EmptyShards > 0 {
			p.pr(", %s empty (fewer shards would do)", humanize.Comma(int64(e.EmptyShards)))
		}
		p.pr("\n")
	}
	what := "the whole board"
	if e.Shards > 1 {
		what = "the largest shard"
	}
	on := Plural(e.Workers, "worker")
	switch {
	case e.Hosts > 0 && e.Hosts == e.Workers:
		on = Plural(e.Hosts, "host goroutine") + " feeding devices"
	case e.Hosts > 0:
		on += fmt.Sprintf(", %d of them feeding devices,", e.Hosts)
	}
	p.pr("memory: at least %s for %s on %s (%s more per worker); --memory is the limit\n",
		humanize.IBytes(uint64(e.ShardMemory)), what, on, humanize.IBytes(uint64(e.WorkerMemory)))
}

// timeUnsampled writes the time line of an estimate that sampled
// nothing: a first task left unfinished, the model's figure, a sample
// stopped or none asked for.
func (p *printer) timeUnsampled(e nqueens.Cost, sample time.Duration) {
	switch {
	case e.Cutoff > 0:
		p.pr("time: unknown: the first sampled task was still running after %s and was left, so the board needs more than %s", e.Cutoff, CoreTime(e.CoreSecondsLow))
		if e.CoreSecondsHigh > 0 {
			p.pr(" (at most about %s by the published counts)", CoreTime(e.CoreSecondsHigh))
		}
		p.pr("\n")
	case e.Modeled:
		p.pr("estimated time: about %s (%s core-seconds)%s, by the model, not this machine: its tasks are too long to sample (the published count of solutions%s, at %s's cost per solution on the reference machine)",
			CoreTime(e.CoreSeconds), sig(e.CoreSeconds), Interval(", 95%% between %s and %s", e.CoreSecondsLow, e.CoreSecondsHigh), extrapolated(e.N), e.Method)
		p.pr("; %s on %s", Human(e.CoreSeconds/float64(max(1, e.Workers))), Plural(e.Workers, "worker"))
		p.perShard(e)
		p.pr("\n")
	case e.Sampled == 0 && sample > 0:
		p.pr("time: not estimated (the sample was stopped)\n")
	case e.Sampled == 0:
		p.pr("time: not estimated (--sample 0); --sample 2s, the default, calibrates on this machine\n")
	}
}

// timeSampled writes the calibration's or the sample's line and the time
// it gives.
func (p *printer) timeSampled(e nqueens.Cost) {
	if e.Calibrated {
		p.pr("calibration: %d tasks of n = 21 counted in %s on one worker, against the reference machine's count; the cost per solution of n = %d measured there\n",
			e.Sampled, e.SampleTime.Round(10*time.Millisecond), e.N)
	} else {
		p.pr("sample: %d tasks counted in %s on one worker", e.Sampled, e.SampleTime.Round(10*time.Millisecond))
		if e.SampledParts > 0 {
			p.pr(", %d of them in parts (down to 1/%d of a side's half-boards)", e.SampledParts, e.MaxThin)
		}
		p.pr("\n")
	}
	exact := e.Sampled == e.Tasks && e.SampledParts == 0 && !e.Calibrated
	switch {
	case exact:
		p.pr("time: %s, every task counted (exact on this machine)", CoreTime(e.CoreSeconds))
	case e.CoreSeconds >= 60:
		p.pr("estimated time on this machine: %s (%s core-seconds)", CoreTime(e.CoreSeconds), sig(e.CoreSeconds))
	default:
		p.pr("estimated time on this machine: %s", CoreTime(e.CoreSeconds))
	}
	switch {
	case exact: // no interval: every task was timed
	case e.CoreSecondsHigh > 0:
		p.pr("%s", Interval(", 95%% between %s and %s", e.CoreSecondsLow, e.CoreSecondsHigh))
		if e.Sampled < 30 && e.Sampled < e.Tasks && !e.Calibrated {
			p.pr(" (only %d tasks: a rough estimate; sample for longer)", e.Sampled)
		}
	case e.Sampled < e.Tasks:
		p.pr(" from a single task: no interval (sample for longer)")
	}
	p.pr("; %s on %s", Human(e.CoreSeconds/float64(max(1, e.Workers))), Plural(e.Workers, "worker"))
	if e.Calibrated {
		p.pr(" (a calibration: --sample 5m samples n = %d itself)", e.N)
	}
	p.perShard(e)
	p.pr("\n")
}

// perShard writes a time line's share of a shard, where there are shards.
func (p *printer) perShard(e nqueens.Cost) {
	if e.Shards > 1 {
		p.pr("; %s (%s) per shard", CoreTime(e.CoreSeconds/float64(e.Shards)), Human(e.CoreSeconds/float64(e.Shards)/float64(max(1, e.Workers))))
	}
}

// deviceLine writes the devices' time, from their sample.
func (p *printer) deviceLine(e nqueens.Cost) {
	p.pr("device: about %s on %s", Human(e.DeviceSeconds), strings.Join(e.Devices, ", "))
	if e.DeviceSecondsHigh > 0 && e.DeviceSecondsHigh > e.DeviceSecondsLow {
		p.pr(", 95%% between %s and %s", Human(e.DeviceSecondsLow), Human(e.DeviceSecondsHigh))
	}
	if e.Shards > 1 {
		p.pr("; %s per shard", Human(e.DeviceSeconds/float64(e.Shards)))
	}
	p.pr(" (%d tasks of n = %d: %s on the device against %s on one worker, %.3g cores' worth)\n", e.DeviceSampled, e.DeviceBoard,
		e.DeviceTime.Round(time.Millisecond), e.DeviceCPUTime.Round(time.Millisecond), e.DeviceCPUTime.Seconds()/e.DeviceTime.Seconds())
}

// Plural is k and the noun, plural unless k is 1: "1 worker", "2 workers".
func Plural(k int, noun string) string {
	if k == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", k, noun)
}

// ModelSource says where the cost model's figure for n comes from.
func ModelSource(n int) string {
	if e := extrapolated(n); e != "" {
		return CountSource(n) + ", on the reference machine"
	}
	return "by the published counts on the reference machine"
}

// CountSource says where the model's count of n's solutions comes from:
// the published counts, extrapolated past the last.
func CountSource(n int) string { return "by the published counts" + extrapolated(n) }

// extrapolated says where a board's count of solutions is not published.
func extrapolated(n int) string {
	if n > known.MaxN {
		return fmt.Sprintf(", extrapolated past n = %d", known.MaxN)
	}
	return ""
}

// sig prints x with 3 significant digits.
func sig(x float64) string { return strconv.FormatFloat(x, 'g', 3, 64) }

// Interval writes a 95% interval of core-seconds, lo to hi, by format
// (two %s verbs, for the two ends as [CoreTime] writes them), or nothing
// where both ends write the same: an interval that says nothing.
func Interval(format string, lo, hi float64) string {
	a, b := CoreTime(lo), CoreTime(hi)
	if a == b {
		return ""
	}
	return fmt.Sprintf(format, a, b)
}

// CoreTime says how much computing x core-seconds are, in core-hours from
// an hour on ("5.1 million core-hours", "2.3 core-hours", "12 core-seconds").
func CoreTime(x float64) string {
	h := x / 3600
	switch {
	case h >= 1e12:
		return tenTo(h) + " core-hours"
	case h >= 1e9:
		return fmt.Sprintf("%.3g billion core-hours", h/1e9)
	case h >= 1e6:
		return fmt.Sprintf("%.3g million core-hours", h/1e6)
	case h >= 100:
		return fmt.Sprintf("%s core-hours", humanize.Comma(int64(roundSig(h, 3))))
	case h >= 1:
		return fmt.Sprintf("%.3g core-hours", h)
	case x >= 60:
		return fmt.Sprintf("%.3g core-minutes", x/60)
	}
	return fmt.Sprintf("%.3g core-seconds", x)
}

// tenTo writes a large x as "3.4 × 10^21".
func tenTo(x float64) string {
	e := math.Floor(math.Log10(x))
	m := x / math.Pow(10, e)
	if m >= 9.95 {
		m, e = m/10, e+1
	}
	return fmt.Sprintf("%.2g × 10^%d", m, int(e))
}

// roundSig rounds x to d significant digits.
func roundSig(x float64, d int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', d, 64), 64)
	return v
}

// Human says how long x seconds is in the largest unit that fits.
func Human(x float64) string {
	switch {
	case x >= 1e12*365.25*86400:
		return tenTo(x/(365.25*86400)) + " years"
	case x >= 365.25*86400:
		return fmt.Sprintf("%.3g years", x/(365.25*86400))
	case x >= 86400:
		return fmt.Sprintf("%.3g days", x/86400)
	case x >= 3600:
		return fmt.Sprintf("%.3g hours", x/3600)
	case x >= 60:
		return fmt.Sprintf("%.3g minutes", x/60)
	}
	return fmt.Sprintf("%.3g s", x)
}
