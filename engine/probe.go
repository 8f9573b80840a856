package engine

// This file times parts of join tasks for estimates: from n = 24
// on one task takes seconds to hours, too long to sample a few hundred
// whole ones. A probe lists every k-th placement of the east side's north
// quarter, so that the east side's half-boards shrink about k-fold and the
// pairs matched with them too, and times the steps: the quarter lists, the
// two listings and the sieve's sort (work that grows with the half-boards
// listed: their time scaled up as the whole task would list them, the
// west side once per piece of the east side), and the matching, whose time
// is scaled by the matching work modeled from the sieve's bucket sizes
// (sieve.work), of the part and of the whole task (its east side's buckets
// k times the part's). The part matches its thinned east side as the
// transposed one, so that its matching calls stay as long as the whole
// task's and the per-call costs, which the model leaves out, as small a
// share. Only the east side is thinned while the west fits in one buffer:
// thinning both would shrink the pairs k²-fold but leave calls too short
// to time what a whole task does (measured at n = 24: estimates 1.23× and
// 1.58× the whole tasks' time at k = 16 and 64). Per-unit matching speed
// is pooled over the sample (TaskTimes: Probe.Match over Probe.Work).

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/partition"
)

// clockStart is where threadTime's wall clock counts from, where a
// thread's CPU time cannot be read.
var clockStart = time.Now()

// Probe is one sampled unit: a join task, whole or thinned.
type Probe struct {
	// Result is the unit's count: the task's own when Thin is 1, part of
	// it otherwise (the same for the same task and Thin every time).
	Result Result
	// Thin: the unit is about a Thin-th of its task (1: the whole task):
	// every Ways-th of the task's ways of the middle queens (two middle
	// columns, board.JoinPairs; 1 otherwise), and of each every
	// Thin/Ways-th placement of the east side's north quarter; ThinWest
	// the same for the west side, thinned only as far as its buffer needs.
	Thin, Ways, ThinWest int
	// Elapsed is the unit's time: the CPU time of the thread that counted
	// it on Linux (so that other processes on the cores do not inflate
	// it), the wall clock elsewhere; Linear, Match and Quarters are parts
	// of it on the same clock.
	Elapsed time.Duration
	// Linear estimates, in seconds, the whole task's time outside the
	// matching: the quarter lists as they were got, the listing of both
	// sides and the sieve's sort, measured and scaled up from the thinned
	// unit. For a task that is not a join task, or a whole one whose sides
	// did not fit in one buffer each, it is the whole time, and the rest
	// 0.
	Linear float64
	// Match is the unit's matching time, in seconds; Work and TaskWork
	// its modeled matching work and the whole task's (equal when Thin is
	// 1), in the same units. The whole task's estimated time is Linear +
	// TaskWork × (the sample's pooled Match / Work).
	Match          float64
	Work, TaskWork float64
	// Quarters is the time, in seconds, the unit took to get its quarter
	// lists (a cached list costs nothing): part of Linear, and what no
	// thinning saves. Patterns estimates the half-boards of the whole
	// task, both sides.
	Quarters float64
	Patterns float64
}

// Probe counts task i, or a part of it thinned by thin (at least 1;
// doubled until the thinned east side fits in one buffer), and times it.
// (One function: the choice of ways and of each side's thinning retries
// until the part fits, on the thread whose CPU time it reads.)
func (s *Sampler) Probe(i, thin int) (Probe, error) {
	if i < 0 || i >= len(s.plan.Tasks) {
		return Probe{}, fmt.Errorf("%w: no task %d in the plan", errPlan, i)
	}
	t := &s.plan.Tasks[i]
	// Timed by the thread's CPU time, on a thread of its own.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	whole := func() Probe {
		start := threadTime()
		r := runTask(s.plan, t, s.js)
		r.Task = i
		el := threadTime() - start
		return Probe{Result: r, Thin: 1, Ways: 1, ThinWest: 1, Elapsed: el, Linear: el.Seconds()}
	}
	if t.Kind != board.Halves || s.js == nil {
		return whole(), nil
	}
	s.ways = joinWays(s.plan.N, t, s.js.cache, s.ways)
	if thin <= 1 {
		if p, ok := s.probeJoin(t, 1, 1); ok {
			p.Result.Task = i
			return p, nil
		}
		return whole(), nil // larger than the buffers: counted as a run does
	}
	// A task of many ways is thinned by its ways first: every step-th of
	// them (from an offset its seed picks, so that each way's share of
	// the task is as likely to be counted as another's), then, once a
	// single way is left, by its east side. The unit's Thin, step times
	// the east side's thinning, gives the same unit again.
	all := s.ways
	var step, east, west int
	var start time.Duration
	var q float64
	pick := func(st, k int) {
		step, east, west = st, k, 1
		s.ways = all
		if step > 1 {
			off := thinOffset(all[0].seed, step)
			s.ways = nil
			for j, w := range all {
				if (j+off)%step == 0 {
					s.ways = append(s.ways, w)
				}
			}
		}
		// The quarter lists first, timed (the part pays for them
		// whatever its thinning), then each side thinned at least as far
		// as its buffer needs by the north-south pairs its half-join will
		// compare, so that the first try mostly fits: listing a side
		// until its buffer is full to learn it does not fit costs the
		// whole buffer's listing (n = 28 with halves of 14 columns: up to
		// 90 s for a task's first part).
		start = threadTime()
		need := func(hj *halfJoin) int {
			return max(1, int(math.Ceil(hj.pairBound()/pairsPerPattern/float64(s.js.chunk))))
		}
		for j := range s.ways {
			startJoin(s.plan.N, t, &s.ways[j], s.js.cache, s.js, 1, 1)
			east, west = max(east, need(&s.js.eastH)), max(west, need(&s.js.westH))
		}
		q = (threadTime() - start).Seconds()
	}
	// At least minPartWays ways stay in a part where the task has them:
	// ways differ in time (1.6-4.6 s among one n = 28 task's 38), and a
	// part of one way alone said 0.7-2.2 times its whole task; more ways
	// thin each east side further, which estimates low (ten whole n = 28
	// tasks against parts of at least 1, 2, 4 and 8 ways: the measured
	// time over the estimated, summed, 0.89, 0.94, 1.06 and 1.21). At
	// the board, parts of one way and of two agree: five-minute samples
	// of n = 28 taken at the same time estimated 5.07 and 5.24 × 10^9
	// core-seconds, and their 321 common tasks summed within 2.5%; the
	// matching speed per unit of modeled work is the same (within 4%)
	// whether a part's east side is thinned 4-fold or over 64-fold.
	most := max(1, len(all)/minPartWays)
	more := func() { // thin the east side further: after the ways
		if step < most {
			pick(most, max(2, east))
			return
		}
		east *= 2
	}
	pick(min(thin, most), max(1, thin/min(thin, most)))
	if east > 1 && step < most {
		pick(most, east)
	}
	for {
		p, eastFits, westFits := s.probeJoinSides(t, east, west)
		switch {
		case !eastFits:
			more()
		case !westFits:
			west *= 2
		default:
			p.Result.Task = i
			p.Elapsed = threadTime() - start
			p.Quarters += q
			p.Linear += q
			// The whole task's time and work, from the ways counted.
			f := float64(step)
			p.Linear, p.TaskWork, p.Patterns = f*p.Linear, f*p.TaskWork, f*p.Patterns
			p.Thin, p.Ways = step*p.Thin, step
			return p, nil
		}
	}
}

// minPartWays is the fewest ways of a task with many (two middle columns)
// a part counts.
const minPartWays = 2

// pairsPerPattern is about how many north-south pairs a half-join compares
// per half-board it lists (n = 19 and 20: 2.96).
const pairsPerPattern = 3

// pairBound is how many north-south pairs the half-join will compare: an
// upper bound on the half-boards it lists.
func (hj *halfJoin) pairBound() float64 {
	N, S := hj.north, hj.south
	var b float64
	j := len(S.keys) - 1
	for i, key := range N.keys {
		want := hj.cols ^ key
		for j >= 0 && S.keys[j] > want {
			j--
		}
		if j < 0 {
			break
		}
		if S.keys[j] == want {
			b += float64(N.offs[i+1]-N.offs[i]) * float64(S.offs[j+1]-S.offs[j])
		}
	}
	return b
}

// TaskTimes estimates the whole time of each probed task: the time itself
// for a whole task, and for a part its linear time plus its task's
// matching work at the speed the parts matched at, pooled over all of
// them.
func TaskTimes(ps []Probe) []float64 {
	var match, work float64
	for _, p := range ps {
		if p.Work > 0 {
			match += p.Match
			work += p.Work
		}
	}
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = p.Elapsed.Seconds()
		if p.Thin > 1 {
			out[i] = p.Linear
			if work > 0 {
				out[i] += p.TaskWork * match / work
			}
		}
	}
	return out
}

// probeJoin is probeJoinSides, false if a side did not fit in its buffer.
func (s *Sampler) probeJoin(t *partition.Task, thinE, thinW int) (Probe, bool) {
	p, e, w := s.probeJoinSides(t, thinE, thinW)
	return p, e && w
}

// probeJoinSides lists and matches task t (its ways in s.ways) with its
// east and west sides thinned by thinE and thinW, and reports whether each
// side fitted in one buffer (the probe is valid only if both did): the
// sum of its ways' probes.
func (s *Sampler) probeJoinSides(t *partition.Task, thinE, thinW int) (p Probe, eastFits, westFits bool) {
	p = Probe{Thin: thinE, Ways: 1, ThinWest: thinW}
	for j := range s.ways {
		w, e, wf := s.probeWay(t, &s.ways[j], thinE, thinW)
		if !e || !wf {
			return Probe{}, e, wf
		}
		p.add(w)
	}
	return p, true, true
}

// add adds q's times, work and counts to p's (its thinning stays p's).
func (p *Probe) add(q Probe) {
	p.Elapsed += q.Elapsed
	p.Match += q.Match
	p.Quarters += q.Quarters
	p.Linear += q.Linear
	p.Work += q.Work
	p.TaskWork += q.TaskWork
	p.Patterns += q.Patterns
	p.Result.Total += q.Result.Total
	p.Result.Nodes += q.Result.Nodes
}

// probeWay is probeJoinSides for way w of task t.
func (s *Sampler) probeWay(t *partition.Task, w *joinWay, thinE, thinW int) (p Probe, eastFits, westFits bool) {
	js, qc, n := s.js, s.js.cache, s.plan.N
	start := threadTime()
	chunks := startJoin(n, t, w, qc, js, thinE, thinW)
	got := threadTime()
	ne := listSide(&js.eastH, &js.east, js.chunk)
	if !js.eastH.done {
		return Probe{}, false, true
	}
	listedE := threadTime()
	nw := listSide(&js.westH, &js.west, js.chunk)
	if !js.westH.done {
		return Probe{}, true, false
	}
	listed := threadTime()
	js.sortE = grow(js.sortE, ne, js.east)
	js.sortW = grow(js.sortW, nw, js.west)
	east, west, sortE, sortW := js.east[:ne], js.west[:nw], js.sortE[:ne], js.sortW[:nw]
	// A whole task as countSides orients it; a part with its thinned east
	// side transposed.
	eastT := thinE > 1 || matchCost(nw, ne) >= matchCost(ne, nw)
	transposed, items, sortT, sortI := east, west, sortE, sortW
	if !eastT {
		transposed, items, sortT, sortI = west, east, sortW, sortE
	}
	if js.buckets == nil {
		js.buckets = new(buckets)
	}
	b := js.buckets
	sorted := b.sort(qc.sv, transposed, items, sortT, sortI, chunks, extraBits)
	cut := threadTime()
	var pairs uint64
	if sorted {
		pairs = b.match(js, qc.sv, sortT, sortI)
	} else {
		pairs = matchChunk(js, transposed, items, chunks)
	}
	end := threadTime()

	p = Probe{Thin: thinE, ThinWest: thinW, Elapsed: end - start, Match: (end - cut).Seconds(), Quarters: (got - start).Seconds()}
	p.Result.Total = pairs * w.weight
	p.Result.Nodes = js.eastH.nodes() + js.westH.nodes()
	// The model needs the sides split by the extra bits whether or not
	// this unit was (the whole task may be).
	hT, hI := &s.hist[0], &s.hist[1]
	qc.sv.histogram(hT, hI, transposed, items, extraBits)
	p.Work = qc.sv.work(hT, hI, len(transposed), len(items), chunks)
	sorting := (cut - listed).Seconds()
	if thinE == 1 && thinW == 1 {
		p.Linear = (listed - start).Seconds() + sorting
		p.TaskWork, p.Patterns = p.Work, float64(ne+nw)
		return p, true, true
	}
	// The whole task's sides, in pieces of the buffer's size: the real
	// task lists the west side again for each piece of the east side, and
	// matches every pair of pieces.
	ke, kw := float64(thinE), float64(thinW)
	fe, fw := ke*float64(ne), kw*float64(nw)
	p.Patterns = fe + fw
	pe, pw := pieces(fe, js.chunk), pieces(fw, js.chunk)
	p.Linear = p.Quarters + ke*(listedE-got).Seconds() + kw*pe*(listed-listedE).Seconds()
	if ne+nw > 0 {
		p.Linear += sorting * (pw*fe + pe*fw) / float64(ne+nw)
	}
	// One pair of pieces, as countSides would orient it.
	hE, hW := hT, hI
	if !eastT {
		hE, hW = hI, hT
	}
	p.TaskWork = pe * pw * pieceWork(qc.sv, hE, hW, ke/pe, kw/pw, chunks)
	return p, true, true
}

// pieceWork is the matching work of one pair of pieces of a task's
// sides, modelled from a part's histograms by side, hE and hW, each
// scaled by its side's piece over the part (fE, fW), and oriented as
// countSides would orient the pieces.
func pieceWork(sv sieve, hE, hW *[fineKeys]int, fE, fW float64, chunks int) float64 {
	scale := func(h *[fineKeys]int, f float64) (out [fineKeys]int, n int) {
		for i, c := range h {
			out[i] = int(float64(c)*f + 0.5)
			n += c
		}
		return out, int(float64(n)*f + 0.5)
	}
	sE, nE := scale(hE, fE)
	sW, nW := scale(hW, fW)
	tT, tI, nT, nI := &sE, &sW, nE, nW
	if matchCost(nI, nT) < matchCost(nT, nI) {
		tT, tI, nT, nI = tI, tT, nI, nT
	}
	return sv.work(tT, tI, nT, nI, chunks)
}

// pieces is how many buffers of chunk patterns hold x patterns.
func pieces(x float64, chunk int) float64 {
	return max(1, float64(int((x+float64(chunk)-1)/float64(chunk))))
}

// buildWork is what transposing 64 patterns into a table block costs in
// the units of work: buildCost spread over a block's groups.
const buildWork = buildCost / (blockPatterns / 64)

// work models the matching work of two sides whose patterns by fine key
// (fineAt) are hT and hI (nT and nI in all), as buckets.sort and
// buckets.match do it: with the sieve's cut and the extra bits' split
// where they apply, otherwise all of transposed against all of items. The
// unit is one item matched against one group of 64 transposed patterns,
// one table chunk each: the portable matchBlock reads only a block's
// groups that hold patterns, the assembly ones all eight of them, so that
// with those a partial block, which thinned sides have more of, costs
// what a full one does (measured at n = 24 counting partial blocks as
// their groups: the estimates came out 1.2-1.4× the whole tasks' time).
func (sv sieve) work(hT, hI *[fineKeys]int, nT, nI, chunks int) float64 { // hT, hI by key<<extraBits | extra bits
	var best uint8
	if sv.ok && nT > 0 && nI > 0 {
		kT, kI := keys(hT, extraBits), keys(hI, extraBits)
		best = sv.cut(&kT, &kI, nT, nI)
	}
	if best == 0 {
		return float64(chunks) * blockGroupsOf(nT) * float64(nI+buildWork)
	}
	chunks = min(chunks, patternChunks(int(sv.squeeze(best).bits)))
	shift := sv.splits(nT, nI)
	if shift == extraBits {
		_, w := sv.split(hT, hI, best, nT, nI, chunks)
		return w
	}
	return sv.workAt(hT, hI, best, shift, chunks)
}

// split chooses how many extra bits split sides of nT and nI patterns
// whose histograms by key<<extraBits | extra bits are hT and hI, under
// cut best, with patterns of chunks chunks once squeezed: four or six,
// whichever the model gives less work, six with the finer sort's cost
// (finerSort) and, where sieve.apart lays them out, one chunk fewer an
// item. It returns the shift and its work.
func (sv sieve) split(hT, hI *[fineKeys]int, best uint8, nT, nI, chunks int) (uint, float64) {
	w4 := sv.workAt(hT, hI, best, 4, chunks)
	w6 := sv.workAt(hT, hI, best, extraBits, chunks) + finerSort*float64(nT+nI)
	if w6 < w4 {
		return extraBits, w6
	}
	return 4, w4
}

// blockGroupsOf is how many groups of 64 a kernel reads for c transposed
// patterns: the portable matchBlock reads only a block's groups that hold
// patterns, the assembly ones all eight of them.
func blockGroupsOf(c int) float64 {
	if matchReadsWholeBlocks() {
		return float64((c+blockPatterns-1)/blockPatterns) * (blockPatterns / 64)
	}
	return float64((c + 63) / 64)
}

// workAt is work under cut best with the sides split by shift extra bits.
func (sv sieve) workAt(hT, hI *[fineKeys]int, best uint8, shift uint, chunks int) float64 {
	if _, vary, ok := sv.apart(best, shift); ok {
		chunks = vary // the extra bits' chunk is read once a sub-bucket
	}
	subs := 1 << shift
	// Sub-bucket bounds, as buckets.sort makes them.
	var cT, cI [fineKeys + 1]int
	bounds(&cT, hT, extraBits, best, shift)
	bounds(&cI, hI, extraBits, best, shift)
	var w float64
	for v := uint8(0); ; v = (v - best) & best {
		sub := cT[int(v)<<shift:][:subs+1]
		if sub[subs] > sub[0] {
			// The items a block of v meets, by the extra bits all of
			// the block's patterns hold: byE[e] items of sub-bucket e
			// in the buckets v meets, and then, summed over the subsets
			// of each set of extra bits, allowed[^and] those a block
			// with and meets (the items holding none of and's bits).
			var allowed [1 << extraBits]int
			rest := best &^ v
			for u := rest; ; u = (u - 1) & rest {
				if !sv.long || longWeight(v, u) != 0 {
					iu := cI[int(u)<<shift:][:subs+1]
					for e := range subs {
						allowed[e] += iu[e+1] - iu[e]
					}
				}
				if u == 0 {
					break
				}
			}
			for i := range shift {
				for e := range subs {
					if e>>i&1 != 0 {
						allowed[e] += allowed[e^1<<i]
					}
				}
			}
			for p := sub[0]; p < sub[subs]; {
				k := min(blockPatterns, sub[subs]-p)
				and := blockAnd(sub, p, k)
				p += k
				w += blockGroupsOf(k) * float64(allowed[(subs-1)&^and]+buildWork)
			}
		}
		if v == best {
			break
		}
	}
	return float64(chunks) * w
}

// thinOffset is the offset in 0..thin-1 that seed picks.
func thinOffset(seed uint64, thin int) int {
	seed *= 0x9e3779b97f4a7c15
	return int((seed ^ seed>>29) % uint64(thin))
}

// thinNorth returns the placements of north list l whose index plus off
// is a multiple of thin, in dst's storage: over the offsets 0..thin-1
// each placement of l is kept exactly once.
func thinNorth(l *quarterList, dst *quarterList, thin, off int) *quarterList {
	dst.keys, dst.offs, dst.places, dst.f = dst.keys[:0], dst.offs[:0], dst.places[:0], l.f
	dst.offs = append(dst.offs, 0)
	for i, key := range l.keys {
		lo, hi := int(l.offs[i]), int(l.offs[i+1])
		// The first index ≥ lo with (index + off) % thin == 0.
		first := lo + (thin-(lo+off)%thin)%thin
		before := len(dst.places)
		for x := first; x < hi; x += thin {
			dst.places = append(dst.places, l.places[x])
		}
		if len(dst.places) > before {
			dst.keys = append(dst.keys, key)
			dst.offs = append(dst.offs, uint32(len(dst.places)))
		}
	}
	return dst
}
