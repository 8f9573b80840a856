package engine

// This file is the device's own listing of a join task's sides. The host
// walks each half's quarter lists by column set (which north set goes
// with which south set, as halfJoin.fill walks them), counts the
// north–south pairs (the task's nodes, and the most patterns the half
// can have), and ships the lists; the device joins each north placement
// with its south placements, writes the half-boards' patterns into the
// side's slot and counts them by bucket (by sub-bucket, split by
// backend.SplitBits extra bits, where buckets are split and the side may
// be large enough); the host then plans each pair of sides' sieve from those
// counts (buckets.planFrom), and the device sorts
// and matches them as it does sides the host listed (backend.JoinBatch). A way
// larger than a batch has a batch of its own; one past maxListedWay is
// listed on the host.

import (
	"time"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/partition"
)

// maxListedWay is the most room (north–south pairs, both sides) of a way
// the device lists: 2^28 patterns listed and as many sorted, 4 GiB of the
// device's memory. The host lists larger ways in pieces.
const maxListedWay = 1 << 28

// listedWay is a way whose sides the device lists: its two slots (east,
// west) and what its part needs once they are listed.
type listedWay struct {
	slots  [2]int
	chunks int
	owner  int32
	mult   uint64
}

// pairsOf is the north–south pairs the half's listing compares
// (halfJoin.fill's pairs once done): for each north placement that
// spares the middle queens, the south placements of the other columns.
func pairsOf(hj *halfJoin) uint64 {
	var pairs uint64
	hj.eachGroup(func(nlo, nhi, slo, shi uint32) {
		spared := uint64(0)
		for _, a := range hj.north.places[nlo:nhi] {
			if hj.jf.spares(a) {
				spared++
			}
		}
		pairs += spared * uint64(shi-slo)
	})
	return pairs
}

// eachGroup calls f with each range of north placements and the range of
// south placements that take the other columns of the half, as
// halfJoin.fill pairs them.
func (hj *halfJoin) eachGroup(f func(nlo, nhi, slo, shi uint32)) {
	N, S := hj.north, hj.south
	j := len(S.keys) - 1
	for i := range N.keys {
		want := hj.cols ^ N.keys[i]
		for j >= 0 && S.keys[j] > want {
			j--
		}
		if j < 0 {
			return
		}
		if S.keys[j] != want || S.offs[j+1] == S.offs[j] || N.offs[i+1] == N.offs[i] {
			continue
		}
		f(N.offs[i], N.offs[i+1], S.offs[j], S.offs[j+1])
	}
}

// wayOnDevice puts way w of task t into the batch for the device to
// list, and sets the halves' nodes; false, having put nothing, when its
// sides' room passes maxListedWay. A way larger than a batch has a batch
// of its own.
func (f *joinFeeder) wayOnDevice(n int, t *partition.Task, w *joinWay, qc *quarterCache) bool {
	js, b := f.js, &f.b
	chunks := startJoin(n, t, w, qc, js, 1, 1)
	pe, pw := pairsOf(&js.eastH), pairsOf(&js.westH)
	if pe+pw > maxListedWay {
		return false
	}
	if !b.OnDevice && b.patterns() > 0 || b.Room > 0 && b.Room+int(pe+pw) > b.Tuning.Batch {
		began := time.Now()
		f.flush()
		f.inPart += time.Since(began)
		if f.err != nil {
			return true
		}
	}
	b.OnDevice = true
	// The nodes, as a listing on the host counts them.
	js.eastH.pairs, js.westH.pairs = pe, pw
	lw := listedWay{chunks: chunks, owner: int32(len(f.pending) - 1), mult: f.mult}
	lw.slots[0] = f.slot(&js.eastH, qc.sv, pe)
	lw.slots[1] = f.slot(&js.westH, qc.sv, pw)
	f.listed = append(f.listed, lw)
	return true
}

// slot ships a half's quarter lists and their listings into the batch,
// with room for pairs patterns, and returns its slot. Its patterns are
// counted by sub-bucket (the feeder's split extra bits) where pairs might
// make a side large enough to be split (sieve.splits), else by bucket.
func (f *joinFeeder) slot(hj *halfJoin, sv sieve, pairs uint64) int {
	b := &f.b
	s := len(b.Slots) / backend.SlotWords
	nBase, sBase := f.ship(hj.north), f.ship(hj.south)
	jf := &hj.jf
	m0, a0, _, _ := sv.shifts()
	shift := uint64(0)
	if sv.splits(int(min(pairs, maxListedWay)), maxListedWay) > 0 {
		shift = uint64(f.split)
	}
	listed := uint64(b.ListedWords())
	b.Slots = append(b.Slots, uint64(b.Room)|pairs<<32,
		uint64(jf.north.b1)|uint64(jf.north.b2)<<8|uint64(jf.south.b1)<<16|uint64(jf.south.b2)<<24|
			uint64(jf.w.lo)<<32|uint64(jf.w.width)<<40|uint64(m0)<<48|uint64(a0)<<56,
		jf.ban1, jf.ban2, listed|shift<<32)
	b.Room += int(pairs)
	hj.eachGroup(func(nlo, nhi, slo, shi uint32) {
		b.Listings = append(b.Listings, nBase+nlo, nhi-nlo, sBase+slo, shi-slo, uint32(s), 0)
	})
	return s
}

// ship returns where list l's placements begin in the batch's Lists,
// appending them unless the Lists hold them already: a list the cache
// keeps does not change, so it is shipped once while the batch's Lists
// last (across its launches, until reset empties them), whatever ways and
// tasks use it (a task's east lists serve all its ways); a worker's own
// list, refilled task by task, every time it is used.
func (f *joinFeeder) ship(l *quarterList) uint32 {
	b := &f.b
	if at, ok := f.shipped[l]; ok {
		return at
	}
	at := uint32(len(b.Lists))
	b.Lists = append(b.Lists, l.places...)
	if !f.js.scratchList(l) {
		if f.shipped == nil {
			f.shipped = map[*quarterList]uint32{}
		}
		f.shipped[l] = at
	}
	return at
}

// listedOf is slot s's words in b.Listed (its patterns, then their
// counts by key<<shift | extra bits) and its shift.
func listedOf(b *backend.JoinBatch, s int) ([]uint32, uint) {
	w := b.Slots[backend.SlotWords*s+4]
	shift := uint(w >> 32)
	return b.Listed[uint32(w):][:backend.Bounds(shift)], shift
}

// fold sets h (by key<<shift | extra bits) from a slot's counts c (by
// key<<from | extra bits, from ≥ shift): a sub-bucket's counts summed
// over the extra bits past shift.
func fold(h *[fineKeys]int, c []uint32, from, shift uint) {
	clear(h[:256<<shift])
	for k, x := range c {
		h[k>>from<<shift|k&(1<<shift-1)] += int(x)
	}
}

// finish adds the parts of the ways the device listed, from their sides'
// sizes and counts by sub-bucket (b.Listed).
func (f *joinFeeder) finish(sv sieve) {
	b, bk := &f.b, f.buckets()
	for _, lw := range f.listed {
		lT, sT := listedOf(&b.JoinBatch, lw.slots[0])
		lI, sI := listedOf(&b.JoinBatch, lw.slots[1])
		tS, iS := lw.slots[0], lw.slots[1]
		nT, nI := int(lT[0]), int(lI[0])
		if matchCost(nI, nT) < matchCost(nT, nI) {
			tS, iS, nT, nI, lT, lI, sT, sI = iS, tS, nI, nT, lI, lT, sI, sT
		}
		f.prof.Patterns += int64(nT + nI)
		if nT == 0 || nI == 0 {
			continue
		}
		// Split as the host would split sides of these sizes (a side
		// that large was counted by sub-bucket: its room held it).
		bk.shift = min(sv.splits(nT, nI), f.split, sT, sI)
		fold(&bk.hT, lT[1:], sT, bk.shift)
		fold(&bk.hI, lI[1:], sI, bk.shift)
		cut, sq, chunks := uint8(0), squeeze{}, lw.chunks
		if sv.ok && bk.planFrom(sv, nT, nI, chunks) {
			cut, sq, chunks = bk.best, bk.sq, bk.chunks
		} else {
			bk.whole(nT, nI)
		}
		t0, i0 := int(uint32(b.Slots[tS*backend.SlotWords])), int(uint32(b.Slots[iS*backend.SlotWords]))
		f.addPart(sv, t0, nT, i0, nI, cut, sq, chunks, lw.owner, lw.mult)
	}
}
