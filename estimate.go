package nqueens

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"time"

	"github.com/nqueens/nqueens/engine"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// Cost is what a count will cost, known before it starts: the plan's
// size and its split into shards (CostPlan), the memory a shard needs
// (CostMemory), the core-seconds of the whole board from a sample of
// tasks counted on this machine or from the model (CostTime) and, with
// [WithDevice], the devices' time (CostDevice). Each part's fields are
// Cost's own (e.N, e.CoreSeconds).
type Cost struct {
	CostPlan
	CostMemory
	CostTime
	CostDevice
}

// CostPlan is the plan a [Cost] is for: the board, the tasks and the
// shards.
type CostPlan struct {
	N      int
	Method Method
	Piece  Piece
	Torus  bool
	// Tasks is the whole plan's; Work its estimated cost, in the
	// planner's units (comparable within one plan only).
	Tasks int
	Work  uint64
	// Fingerprint is the plan's, as journals and shard files record it.
	Fingerprint string
	// Shards is the split asked for (1: the whole board); ShardTasks the
	// least and most tasks in one shard, EmptyShards how many have none.
	Shards        int
	ShardTasksMin int
	ShardTasksMax int
	EmptyShards   int
}

// CostMemory is the memory a count of a [Cost]'s plan needs.
type CostMemory struct {
	// Workers is the number the memory figures are for: the goroutines
	// that list the tasks, Hosts of them feeding devices (with
	// [WithDevice], as many as a count on this machine starts). ShardMemory is
	// the least memory limit the largest shard (the whole board for one
	// shard) needs with them; WorkerMemory what each further worker adds.
	Workers      int
	Hosts        int
	ShardMemory  int64
	WorkerMemory int64
}

// CostTime is a [Cost]'s time on this machine's cores: from a sample, a
// calibration or the model.
type CostTime struct {
	// Sampled tasks were counted in SampleTime on one worker (none
	// without [WithSample]); CoreSeconds estimates the whole board's
	// time on one core of this machine, within CoreSecondsLow and
	// CoreSecondsHigh (a 95% interval from the sample's spread; the
	// three are equal when every task was counted, and both bounds 0 when
	// a single task was, which shows no spread).
	Sampled    int
	SampleTime time.Duration
	// SampledParts of the sampled tasks were too long to count whole in
	// a sample and were counted in parts (every MaxThin-th north-quarter
	// placement at most, see [WithSample]), their time estimated from the
	// part's.
	SampledParts    int
	MaxThin         int
	CoreSeconds     float64
	CoreSecondsLow  float64
	CoreSecondsHigh float64
	// Modeled is set when the core-seconds come from the cost model
	// instead of this machine: the board's tasks are too long to sample
	// (the model puts its tasks past ten times the sample's time, n = 40
	// by sym for one), so the published count of solutions (past n = 27,
	// its extrapolation) times the method's cost per solution on the
	// reference machine stands in, with that model's interval (a factor
	// of 2 to 4 either way). Sampled is then 0.
	Modeled bool
	// Unknown is set by [Model] and [Forecast] where no model bounds the
	// count and it may take long (knights searched rather than swept).
	Unknown bool
	// Cutoff is set when a sampled task was still running after it (ten
	// times the sample's time, at least 10 s) and was left: the
	// board's time is unknown, CoreSeconds is 0, and CoreSecondsLow is a
	// bound from below (that one task alone takes longer), CoreSecondsHigh
	// the model's bound from above where there is one (queens, placed or
	// on the torus), else 0.
	Cutoff time.Duration
	// Calibrated is set when the core-seconds come from a calibration
	// rather than a sample of the board's own tasks: a sample as short as
	// a calibration (under 20 s) of the join's boards from
	// n = 24 on, whose tasks a few seconds cannot sample, is taken of n =
	// 21 instead, and this machine's speed on it (against the reference
	// machine's count of n = 21) scales the reference machine's measured
	// cost per solution of the board asked; the interval adds that
	// cost's own uncertainty. Sampled and SampleTime are then the
	// calibration's.
	Calibrated bool
}

// CostDevice is a [Cost]'s time on the devices [WithDevice] names.
type CostDevice struct {
	// DeviceSeconds estimates the board's time on the devices
	// [WithDevice] names, fed by this machine's cores (wall-clock
	// seconds, within DeviceSecondsLow and DeviceSecondsHigh): the
	// core-seconds times the ratio of the devices' time (DeviceTime) to
	// one worker's (DeviceCPUTime) on the same DeviceSampled tasks (the
	// largest chunk of a few that double) of n =
	// DeviceBoard (the board itself up to n = 21, else n = 21, whose
	// tasks take milliseconds: the devices' speed against a core there
	// stands in for theirs on the board). Zero without a device, or
	// without core-seconds.
	DeviceSeconds, DeviceSecondsLow, DeviceSecondsHigh float64
	Devices                                            []string
	DeviceSampled, DeviceBoard                         int
	DeviceTime, DeviceCPUTime                          time.Duration
}

// WithSample makes [Estimate] count a random sample of the plan's tasks
// for about d on one worker (at least one task, however long it takes),
// to estimate the core-seconds of the whole count. The sample depends
// only on the plan, so it is the same on every machine.
//
// [Estimate] takes it.
func WithSample(d time.Duration) EstimateOption {
	return estimateOnly{set: set{"WithSample", func(c *config) { c.sample = d }}}
}

// sampleSeed fixes the sample: the same tasks in the same order each time.
const sampleSeed = 0x6e7175656e73

// The tests' seams into Estimate: the seed its sample is drawn with (0:
// sampleSeed), to check its interval over many samples, and the least
// thinning of a sampled join task (0: none), to reach the parts whatever
// the machine's speed.
var (
	drawSeed  uint64
	leastThin int
)

// maxSample bounds the tasks a sample draws (and holds).
const maxSample = 1 << 16

// Estimate describes what counting the n×n board in shards of the split
// asked for takes ([WithShard]'s m; its index and file are not used):
// tasks, the work per shard, memory, and with [WithSample] the estimated
// core-seconds. It walks the plan twice, holding no task (n = 27 by join,
// 70 million tasks: about 13 s here).
//
// A sample ends when ctx is done, leaving the task it was counting to
// finish on its own: Estimate then returns the plan's figures, without
// core-seconds, together with the error.
func Estimate(ctx context.Context, n int, opts ...EstimateOption) (Cost, error) {
	c, err := newConfig("Estimate", opts)
	if err == nil {
		err = nilContext("Estimate", ctx)
	}
	if err != nil {
		return Cost{}, err
	}
	return c.estimate(ctx, n)
}

// estimate is [Estimate] for c.
func (c *config) estimate(ctx context.Context, n int) (Cost, error) {
	pl, err := c.planner(ctx, n)
	if err != nil {
		return Cost{}, err
	}
	st, err := pl.Stats(c.shards)
	if err != nil {
		return Cost{}, c.planError(ctx, n, err)
	}
	e := Cost{CostPlan: CostPlan{N: n, Method: Method(st.Method), Piece: c.piece, Torus: c.torus, Tasks: st.Tasks, Work: st.Cost,
		Fingerprint: st.Fingerprint, Shards: c.shards, ShardTasksMin: st.MinTasks, ShardTasksMax: st.MaxTasks,
		EmptyShards: st.Empty}, CostMemory: CostMemory{Workers: c.workers}}
	if e.Piece == "" {
		e.Piece = Queen
	}
	// The memory of the largest shard on the goroutines that would list
	// its tasks and the devices' batches, as a count adds them.
	sd := c.side(st.Method)
	listers, hosts, batches := sd.listers, sd.hosts, sd.batches
	e.Workers, e.Hosts = listers, hosts
	e.ShardMemory = engine.MemoryNeed(n, st.Method, st.MaxTasks, listers) + batches
	e.WorkerMemory = engine.MemoryNeed(n, st.Method, st.MaxTasks, listers+1) + batches - e.ShardMemory
	if st.Sweep {
		e.ShardMemory += engine.SweepBytes(n)
	}
	// A plan no count could run within the limit is refused as the count
	// would refuse it: always where --memory is given, and where more
	// shards would not help (the workers', the devices' hosts' or their
	// batches' memory) within the default.
	if err := engine.FitMemory(n, st.Method, listers, st.MaxTasks, c.shards, c.memoryLimit(), e.ShardMemory); err != nil {
		if me, ok := err.(*engine.MemoryError); ok && (c.memory > 0 || !me.MostlyTasks()) {
			me.Hosts = hosts
			return Cost{}, invalid(err)
		}
	}
	var serr error
	switch {
	case c.sample > 0 && c.calibrates(n, st.Method):
		serr = c.calibrate(ctx, &e)
	case c.sample > 0:
		serr = c.sampleCost(ctx, pl, &e)
	}
	if serr != nil {
		if ctx.Err() != nil {
			plain := e
			plain.Sampled, plain.SampledParts, plain.MaxThin, plain.SampleTime = 0, 0, 0, 0
			plain.CoreSeconds, plain.CoreSecondsLow, plain.CoreSecondsHigh, plain.Calibrated, plain.Modeled, plain.Cutoff = 0, 0, 0, false, false, 0
			return plain, serr
		}
		return Cost{}, serr
	}
	if c.device != "" && e.CoreSeconds > 0 {
		if err := c.deviceCost(ctx, &e); err != nil {
			if ctx.Err() != nil {
				return e, err
			}
			return Cost{}, err
		}
	}
	return e, nil
}

// deviceSampleN is the largest board whose own tasks a device's sample
// counts.
const deviceSampleN = 21

// deviceCost times tasks of the plan's sample (of n, or n =
// deviceSampleN past it) on one CPU worker and on the devices c names,
// in chunks that double, for about c.sample each, and sets e's device
// figures from the ratio. The first task is counted on both first and
// not timed: it builds the kernels and fills the quarter caches, which
// each side keeps from chunk to chunk.
func (c *config) deviceCost(ctx context.Context, e *Cost) error {
	cc := *c
	cc.shards, cc.shard = 1, 0
	m := min(e.N, deviceSampleN)
	pl, err := cc.planner(ctx, m)
	if err != nil {
		return err
	}
	tasks, _, err := pl.Sample(maxSample, cmp.Or(drawSeed, sampleSeed))
	if err != nil {
		return c.planError(ctx, m, err)
	}
	plan := &partition.Plan{N: m, Method: partition.Method(e.Method), Piece: board.Piece(e.Piece), Torus: e.Torus, Placed: boardSquares(c.placed), Tasks: tasks, Shards: 1}
	if err := c.devicePlan(plan); err != nil {
		return err
	}
	devs, _, err := c.openDevices()
	if err != nil {
		return err
	}
	defer devs.Close()
	var onCPU, onDevice engine.KeptBuffers
	skip := make([]bool, len(tasks))
	count := func(from, to int, devices bool) (time.Duration, error) {
		for i := range skip {
			skip[i] = i < from || i >= to
		}
		opt := engine.Options{Workers: 1, Skip: skip, Memory: c.memory, Keep: &onCPU}
		if devices {
			opt = engine.Options{Workers: -1, Devices: devs.list, Tuning: c.joinTuning, Skip: skip, Memory: c.memory, Keep: &onDevice}
		}
		start := time.Now()
		_, err := engine.Run(ctx, plan, opt)
		return time.Since(start), err
	}
	var cpu, dev time.Duration
	from, k := 0, 1
	for from < len(tasks) && (from <= 1 || cpu+dev < c.sample) {
		to := min(len(tasks), from+k)
		tc, err := count(from, to, false)
		if err != nil {
			return stopped(ctx, m, err)
		}
		td, err := count(from, to, true)
		if err != nil {
			return stopped(ctx, m, err)
		}
		if from > 0 {
			cpu, dev = cpu+tc, dev+td
			e.DeviceSampled += to - from
			if tc >= time.Second/10 {
				// The last, largest chunk alone: each run's own costs
				// (its goroutines, a partly filled last batch) weigh
				// less in it than in the small ones.
				cpu, dev, e.DeviceSampled = tc, td, to-from
			}
		}
		from, k = to, 2*k
	}
	if cpu == 0 {
		return nil // a plan of one task: nothing timed
	}
	ratio := dev.Seconds() / cpu.Seconds()
	e.DeviceSeconds, e.DeviceSecondsLow, e.DeviceSecondsHigh = e.CoreSeconds*ratio, e.CoreSecondsLow*ratio, e.CoreSecondsHigh*ratio
	e.Devices, e.DeviceBoard, e.DeviceTime, e.DeviceCPUTime = devs.names, m, dev, cpu
	return nil
}

// calibrateBelow is the longest sample that is a calibration: shorter
// samples of the join's large boards would hold a task or two
// (Cost.Calibrated's doc gives it).
const calibrateBelow = 20 * time.Second

// calibrates reports whether an estimate of n by method calibrates
// instead of sampling: a short sample of the join's plain queens from n =
// 24 on, where the reference costs are known.
func (c *config) calibrates(n int, method partition.Method) bool {
	_, ok := refJoin[n]
	return ok && n >= 24 && method == partition.Join && c.sample < calibrateBelow && c.queens() && len(c.placed) == 0
}

// refJoin is the join's cost per solution on one worker of the reference
// machine (a 2-core AMD EPYC, Zen 5, the engine of 69e35b2;
// bench/data/estimate-2026-12-04-epyc-2core.csv: samples of 75-200 s), in
// core-nanoseconds, with its relative uncertainty at 95% (the samples'
// intervals, and what the ratio of two boards' costs varies between
// machines: about ±10% between the EPYC and a Xeon at n = 24..27). n = 28
// (two middle columns) was 2.0 ns unweighted, the middle of the
// five-minute samples with the committed part rule, 1.86-2.04 ns in four
// taken beside n = 27 or another rule
// (bench/data/estimate-2026-12-04c-epyc-2core.csv,
// part-rules-side-by-side-2026-12-04-epyc-2core.csv) and 2.49 and 2.90 in
// two taken alone; its long-diagonal weights cost 0.81 of that (eight
// whole tasks counted side by side, 0.79-0.86 each and 1.07 on one of
// three seconds; four pairs of samples side by side gave 0.764,
// bench/data/n28-long-weights-2026-12-06-epyc-2core.txt): 1.62 ns, over
// a(28), which is unknown (the samples were read against 2.57 × 10^18;
// the model's extrapolation, [solutions], gives 2.56 × 10^18, a few
// percent either way), hence ±25%. n = 25 and 27 were 1.70 and 2.08 ns
// unweighted; their long-diagonal weights (JoinLongOddFrom) cost 0.794
// of that at n = 27 (100 whole tasks of seed 39 counted side by side,
// measured over the sampler's estimate 1.007; four pairs of samples gave
// 0.842) and 0.829 at n = 25 (the median of four pairs of samples),
// bench/data/n27-long-weights-2026-12-06-epyc-2core.txt: 1.65 and 1.41
// ns. The extra bits kept apart, with the split by four or six of them
// chosen by the cost model (fa33fdf), cost 0.782 of that at n = 27 (100
// whole tasks of seed 39 counted side by side twice, the cores swapped:
// 0.896 and 0.687) and 0.814 at n = 28 (eight whole tasks of seeds 49
// and 50, likewise: 0.833 and 0.797, 0.906 and 0.727),
// bench/data/extra-bits-apart-2026-12-06-epyc-2core.txt: 1.29 and 1.32
// ns; and 0.917 at n = 26 (20 whole tasks of seed 39, likewise: 0.914 and
// 0.919): 1.79 ns. n = 24 and 25 were not measured again: the split by six
// bits applies to most of n = 24's work too (by the model 0.97 of it,
// 0.21 of n = 25's), so their figures are likely high, n = 24's by up to
// a fifth.
var refJoin = map[int]struct{ ns, err float64 }{
	21: {2.13, 0}, // counted: 670.9 core-seconds
	24: {1.62, 0.18}, 25: {1.41, 0.18}, 26: {1.79, 0.2}, 27: {1.29, 0.2}, 28: {1.32, 0.25},
}

// calibrate estimates e's core-seconds from a sample of n = 21 by join
// (whole tasks of milliseconds: hundreds in a second) and [refJoin].
func (c *config) calibrate(ctx context.Context, e *Cost) error {
	cc := *c
	cc.shards, cc.shard, cc.placed = 1, 0, nil
	pl, err := cc.planner(ctx, calibrationN)
	if err != nil {
		return err
	}
	cal := Cost{CostPlan: CostPlan{N: calibrationN, Method: Join, Piece: Queen, Tasks: pl.Size().Tasks}}
	if err := cc.sampleCost(ctx, pl, &cal); err != nil {
		return err
	}
	ref := float64(known.Total[calibrationN]) * refJoin[calibrationN].ns * 1e-9
	speed := cal.CoreSeconds / ref
	var calErr float64 // the calibration's relative uncertainty
	if cal.CoreSecondsHigh > 0 {
		calErr = (cal.CoreSecondsHigh - cal.CoreSecondsLow) / 2 / cal.CoreSeconds
	}
	r := refJoin[e.N]
	e.CoreSeconds = solutions(e.N) * r.ns * 1e-9 * speed
	d := math.Hypot(calErr, r.err) * e.CoreSeconds
	e.CoreSecondsLow, e.CoreSecondsHigh = max(0, e.CoreSeconds-d), e.CoreSeconds+d
	e.Sampled, e.SampleTime, e.Calibrated = cal.Sampled, cal.SampleTime, true
	return nil
}

// calibrationN is the board a calibration samples.
const calibrationN = 21

// planError words a planner's error for the caller.
func (c *config) planError(ctx context.Context, n int, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("planning n = %d stopped: %w", n, context.Cause(ctx))
	}
	return invalid(err)
}

// sampleCost counts a sample of the plan's tasks on one worker for about
// c.sample and estimates the whole plan's core-seconds. A run builds its
// quarter cache once and then reuses it, which a small sample cannot
// show: so the sample is counted twice, for about half the time each, and
// the second, warm pass gives the time per unit of estimated cost (the
// ratio estimator, times the plan's cost), the first the one-off cost of
// the cache on top. Both passes must agree, task by task.
//
// Tasks too long to sample a few hundred of (join tasks from n = 24 on)
// are sampled in parts (engine.Sampler.Probe): each sampled task is
// thinned so that its part takes about a [unitsWanted]th of a pass, and
// its whole time is estimated from the part's.
func (c *config) sampleCost(ctx context.Context, pl *partition.Planner, e *Cost) error {
	tasks, total, err := pl.Sample(maxSample, cmp.Or(drawSeed, sampleSeed))
	if err != nil {
		return c.planError(ctx, e.N, err)
	}
	plan := &partition.Plan{N: e.N, Method: partition.Method(e.Method), Piece: board.Piece(e.Piece), Torus: e.Torus, Placed: boardSquares(c.placed), Tasks: tasks, Shards: 1}
	s, err := engine.NewSampler(plan, c.memory)
	if err != nil {
		return invalid(err)
	}
	if c.modelStandsIn(e, tasks[0].Cost, total) {
		return nil
	}
	start := time.Now()
	cutoff := max(10*c.sample, minCutoff)
	first, left, err := c.firstPass(ctx, s, tasks, e.N, start, cutoff)
	switch {
	case err != nil:
		return err
	case len(first) == 0 && left:
		// The first task ran past the cutoff: a bound from below only.
		e.Cutoff, e.CoreSecondsLow = cutoff, cutoff.Seconds()
		if c.modelBounds() {
			_, _, e.CoreSecondsHigh = modelCost(e.N, partition.Method(e.Method))
		}
		return nil
	case len(first) == 0:
		return nil
	}
	k := len(first)
	e.Sampled = k
	for _, p := range first {
		if p.Thin > 1 {
			e.SampledParts++
			e.MaxThin = max(e.MaxThin, p.Thin)
		}
	}
	if k == len(tasks) && k == e.Tasks && e.SampledParts == 0 {
		// Every task: the time itself.
		e.SampleTime = time.Since(start)
		t := sum(engine.TaskTimes(first))
		e.CoreSeconds, e.CoreSecondsLow, e.CoreSecondsHigh = t, t, t
		return nil
	}
	second, err := secondPass(ctx, s, tasks, first, left, e.N, cutoff)
	if err != nil {
		return err
	}
	e.SampleTime = time.Since(start)
	estimateFrom(e, tasks, total, first, second)
	return nil
}

// modelStandsIn reports whether the cost model stands in for a sample,
// and sets e's figures from it then: where it applies, and puts the first
// sampled task (of planner cost cost, of a plan's total) past ten times
// the sample even at its interval's low end, that task counted whole.
func (c *config) modelStandsIn(e *Cost, cost, total uint64) bool {
	if !c.modelApplies() || (e.Method == Join && firstThin(e.N) > 1) {
		return false
	}
	_, lo, _ := modelCost(e.N, partition.Method(e.Method))
	if lo*float64(cost)/float64(total) <= 10*c.sample.Seconds() {
		return false
	}
	e.CoreSeconds, e.CoreSecondsLow, e.CoreSecondsHigh = modelCost(e.N, partition.Method(e.Method))
	e.Modeled = true
	return true
}

// firstPass counts the sample's tasks in order for about half the sample,
// each thinned to about a [unitsWanted]th of a pass (the first by
// [firstThin]), and returns their probes; left is set when a task ran
// past the cutoff (counted from start) and was left running, which ends
// the pass.
func (c *config) firstPass(ctx context.Context, s *engine.Sampler, tasks []partition.Task, n int, start time.Time, cutoff time.Duration) (first []engine.Probe, left bool, err error) {
	unit := c.sample / 2 / unitsWanted
	var sc float64 // the costs of the tasks so far
	var so tally
	thin := max(firstThin(n), leastThin)
	for i := range tasks {
		if i > 0 && time.Since(start) >= c.sample/2 {
			break
		}
		if i > 0 {
			thin = max(leastThin, so.thin(so.total()/sc*float64(tasks[i].Cost), unit.Seconds()))
		}
		p, ok, err := probeWithin(ctx, s, i, thin, cutoff-time.Since(start))
		if err != nil {
			return nil, false, stopped(ctx, n, err)
		}
		if !ok {
			return first, true, nil
		}
		first = append(first, p)
		sc += float64(tasks[i].Cost)
		so.add(p)
	}
	return first, false, nil
}

// secondPass counts the first pass's units again, warm, each as thinned
// as before, and checks that both counts agree. Where a task was left
// running (left, or one past the cutoff now), the sampler is that task's:
// the first pass's times stand for the second's.
func secondPass(ctx context.Context, s *engine.Sampler, tasks []partition.Task, first []engine.Probe, left bool, n int, cutoff time.Duration) ([]engine.Probe, error) {
	second := make([]engine.Probe, len(first))
	if left {
		copy(second, first)
		return second, nil
	}
	for i := range first {
		p, ok, err := probeWithin(ctx, s, i, first[i].Thin, cutoff)
		if err != nil {
			return nil, stopped(ctx, n, err)
		}
		if !ok {
			copy(second, first)
			return second, nil
		}
		if p.Result != first[i].Result || p.Thin != first[i].Thin {
			return nil, fmt.Errorf("%w: task %s counted twice gave totals %d and %d", ErrMismatch, tasks[i].ID, first[i].Result.Total, p.Result.Total)
		}
		second[i] = p
	}
	return second, nil
}

// stopped words a sample's error: ctx's cause when ctx is done.
func stopped(ctx context.Context, n int, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("sampling n = %d stopped: %w", n, context.Cause(ctx))
	}
	return err
}

// estimateFrom sets e's core-seconds and their 95% interval from the two
// passes: the ratio estimator on the warm pass's times, the cold pass's
// extra time (the quarter cache built once) on top; parts add their
// model's error for their share of the time, and the host's speed its
// own.
func estimateFrom(e *Cost, tasks []partition.Task, total uint64, first, second []engine.Probe) {
	k := len(first)
	cold := sum(engine.TaskTimes(first))
	times := engine.TaskTimes(second)
	warm := sum(times)
	once := max(0, cold-warm)
	costs := make([]float64, k)
	for i := range k {
		costs[i] = float64(tasks[i].Cost)
	}
	est, lo, hi := ratioInterval(times, costs, float64(total), e.Tasks)
	e.CoreSeconds = est + once
	if k < 2 {
		return
	}
	lo, hi = lo+once, hi+once
	if e.SampledParts > 0 {
		var parts float64
		for i, p := range second {
			if p.Thin > 1 {
				parts += times[i]
			}
		}
		d := partsError * parts / warm
		cs := e.CoreSeconds
		lo = cs - math.Hypot(cs-lo, d*cs)
		hi = cs + math.Hypot(hi-cs, d*cs)
	}
	// The host's own speed, which the sample's spread does not show (it
	// moves all of a sample's times at once).
	cs := e.CoreSeconds
	lo = cs - math.Hypot(cs-lo, hostError*cs)
	hi = cs + math.Hypot(hi-cs, hostError*cs)
	e.CoreSecondsLow, e.CoreSecondsHigh = max(cold, lo), hi
}

// minCutoff is the least time a sampled task may run before it is left:
// a sample stops at ten times its own time or this, whichever is longer
// (Cost.Cutoff's doc gives it).
const minCutoff = 10 * time.Second

// probeWithin counts s.Probe(i, thin) on a goroutine of its own and waits
// for it at most limit: ok is false when it was still running then, and
// the error is ctx's cause when ctx was done first. A probe left running
// finishes on its own and keeps s: the caller must not use s again.
func probeWithin(ctx context.Context, s *engine.Sampler, i, thin int, limit time.Duration) (p engine.Probe, ok bool, err error) {
	type done struct {
		p   engine.Probe
		err error
	}
	ch := make(chan done, 1)
	go func() {
		p, err := s.Probe(i, thin)
		ch <- done{p, err}
	}()
	t := time.NewTimer(max(0, limit))
	defer t.Stop()
	select {
	case d := <-ch:
		return d.p, true, d.err
	case <-ctx.Done():
		return engine.Probe{}, false, context.Cause(ctx)
	case <-t.C:
		return engine.Probe{}, false, nil
	}
}

// ratioInterval is the ratio estimator of a population's total y from a
// simple random sample without replacement of k of its tasks (ys, with
// their planner costs xs) and the whole population's cost total: the
// estimate and its 95% interval, from the ratio's standard error with the
// finite population correction and Student's t for k-1 degrees of freedom.
// Both bounds are the estimate when k < 2.
func ratioInterval(ys, xs []float64, total float64, population int) (est, lo, hi float64) {
	k := len(ys)
	sy, sx := sum(ys), sum(xs)
	ratio := sy / sx
	est = ratio * total
	if k < 2 {
		return est, est, est
	}
	var ss float64
	for i := range k {
		d := ys[i] - ratio*xs[i]
		ss += d * d
	}
	se := math.Sqrt(ss/float64(k*(k-1))*(1-float64(k)/float64(population))) / (sx / float64(k))
	q := tQuantile(k - 1)
	return est, (ratio - q*se) * total, (ratio + q*se) * total
}

// partsError bounds the relative error of a task's time estimated from its
// parts, at 95%: at n = 24, 25 and 26, the same tasks' parts, thinned 4-
// to 1024-fold, gave 0.84-1.14 times the whole tasks' time, within 5% at
// the thinning the sampler picks (bench/data/parts-2026-12-03-epyc-2core.txt).
const partsError = 0.15

// hostError bounds, at 95%, how far one machine's speed moves between a
// sample and the count it estimates, as a share of the time: 20 samples
// of n = 18 with other seeds (BenchmarkEstimateInterval), each with a sampling
// interval of ±3%, estimated 1.80 to 2.31 core-seconds for a count of
// 1.98 on the same 2-core EPYC beside a count on its other core; on a
// shared host of this kind the speed wandered by up to 1.5× within
// minutes. No interval covers a change
// in the host's load between the sample and the count: in CI, beside
// other packages' tests, the same 20 samples estimated 1.79-2.77 for a
// count of 1.96 (11 of 20 held it), two vCPUs sharing one core.
const hostError = 0.10

// unitsWanted is how many units a pass of a sample aims at: tasks too
// long for that many are sampled in parts.
const unitsWanted = 400

// firstThin is the thinning of a sample's first task, before any time is
// known: whole tasks to n = 23 (milliseconds each), then about 2× more
// thinning per n (a join task takes 6-17× longer per n from n = 24 on, and
// a part's time falls with its thinning, then with its square).
func firstThin(n int) int {
	if n <= 23 {
		return 1
	}
	return 1 << min(20, n-22)
}

// tally sums a sample's probes as they come.
type tally struct {
	whole       float64 // the times of the whole tasks
	linear      float64 // the parts' linear time
	taskWork    float64 // the parts' tasks' matching work
	match, work float64 // every probe's matching time and work
	quarters    float64 // every probe's time getting quarter lists
	patterns    float64 // the half-boards of the probes' whole tasks
	probes      int
}

func (t *tally) add(p engine.Probe) {
	if p.Thin > 1 {
		t.linear += p.Linear
		t.taskWork += p.TaskWork
	} else {
		t.whole += p.Elapsed.Seconds()
	}
	if p.Work > 0 {
		t.match += p.Match
		t.work += p.Work
	}
	t.quarters += p.Quarters
	t.patterns += p.Patterns
	t.probes++
}

// total is the estimated time of the whole tasks sampled so far.
func (t *tally) total() float64 {
	s := t.whole + t.linear
	if t.work > 0 {
		s += t.taskWork * t.match / t.work
	}
	return s
}

// thin is the thinning that makes a task whose whole time is predicted
// to be whole seconds take about unit seconds: a part thinned k-fold takes
// about q + (whole-q)/k, q the time its quarter lists take, which thinning
// does not save (the part aims at unit-q, a quarter of unit at least). A
// part keeps minPartPatterns east half-boards or so: smaller ones would
// time mostly fixed costs.
func (t *tally) thin(whole, unit float64) int {
	if !(whole > unit) || unit <= 0 || t.probes == 0 {
		return 1
	}
	q := t.quarters / float64(t.probes)
	k := (whole - q) / max(unit-q, unit/4)
	most := t.patterns / 2 / float64(t.probes) / minPartPatterns
	return max(1, int(math.Ceil(min(k, most, 1<<24))))
}

// minPartPatterns is about the fewest east half-boards a part of a task
// lists.
const minPartPatterns = 1 << 14

func sum(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s
}

// tQuantile is the 97.5% quantile of Student's t distribution with df
// degrees of freedom: a small sample's 95% interval is as wide as its few
// tasks warrant (12.7 standard errors from two tasks, 2.26 from ten), not
// the normal 1.96 (two tasks of n = 26 claimed ±23%).
func tQuantile(df int) float64 {
	t := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return math.Inf(1)
	case df <= len(t):
		return t[df-1]
	case df <= 120:
		return 1.96 + 2.4/float64(df) // within 0.002 of the table from 30 to 120
	}
	return 1.96
}
