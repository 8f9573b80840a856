package engine

import (
	"context"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/wide"
	"github.com/nqueens/nqueens/partition"
)

// hostDevice is a Device that runs the device kernels' Go twin.
type hostDevice struct{ launches int }

func (d *hostDevice) Name() string { return "host" }
func (d *hostDevice) Search(_ context.Context, b *backend.SearchBatch) error {
	d.launches++
	searchHost(b)
	return nil
}

func (d *hostDevice) Join(_ context.Context, b *backend.JoinBatch) error {
	d.launches++
	joinHost(b)
	return nil
}

func (d *hostDevice) ListHalves(_ context.Context, b *backend.JoinBatch) error {
	listTwin(b)
	return nil
}

// subKey is pattern x's sub-bucket in a part or slot whose key's shifts
// are m0 and a0, cut cut (255 before a cut) and split by shift extra
// bits: key<<shift | the extra bits, as the kernels compute it.
func subKey(x uint64, m0, a0 uint, cut uint8, shift uint) int {
	if shift == 0 {
		return int(keyAt(x, m0, a0) & cut)
	}
	return subBucket(at(fineAt(x, m0-1, a0-1), shift), cut, shift)
}

// listTwin is the device's listing kernel in Go: each north placement of
// each listing that spares the middle queens, joined with every south
// placement that shares no diagonal with it or with them, the half-board's
// pattern put in the slot's next place and counted in its sub-bucket.
func listTwin(b *backend.JoinBatch) {
	b.Pats = slices.Grow(b.Pats[:0], b.Room)[:b.Room]
	b.Listed = append(b.Listed[:0], make([]uint32, b.ListedWords())...)
	for l := range len(b.Listings) / backend.ListingWords {
		job := b.Listings[backend.ListingWords*l:][:backend.ListingWords]
		sl := b.Slots[backend.SlotWords*job[4]:][:backend.SlotWords]
		base, fr := int(uint32(sl[0])), sl[1]
		north := frame{b1: uint(fr & 255), b2: uint(fr >> 8 & 255)}
		south := frame{b1: uint(fr >> 16 & 255), b2: uint(fr >> 24 & 255)}
		w := window{lo: uint(fr >> 32 & 255), width: uint(fr >> 40 & 255)}
		w.mask = 1<<w.width - 1
		m0, a0 := uint(fr>>48&255), uint(fr>>56)
		shift := uint(sl[4] >> 32)
		out := b.Listed[uint32(sl[4]):][:backend.Bounds(shift)]
		for _, a := range b.Lists[job[0] : job[0]+job[1]] {
			a1, a2 := north.unpack(a)
			if a1&sl[2]|a2&sl[3] != 0 {
				continue
			}
			apat := w.pattern(a1, a2)
			as := south.pack(a1|sl[2], a2|sl[3])
			for _, s := range b.Lists[job[2] : job[2]+job[3]] {
				if as&s == 0 {
					s1, s2 := south.unpack(s)
					p := apat | w.pattern(s1, s2)
					b.Pats[base+int(out[0])] = p
					out[0]++
					out[1+subKey(p, m0, a0, 255, shift)]++
				}
			}
		}
	}
}

// sortTwin is the sort kernel in Go: each side's patterns in their
// sub-buckets' places, squeezed, each sort job taking its sub-bucket's
// next free places (as the host left them where it sorted).
func sortTwin(b *backend.JoinBatch) []uint64 {
	sorted := make([]uint64, len(b.Pats))
	if b.Sorted() {
		copy(sorted, b.Pats)
		return sorted
	}
	next := slices.Clone(b.Bounds)
	for s := range len(b.Sorts) / backend.SortWords {
		job := b.Sorts[backend.SortWords*s:][:backend.SortWords]
		part := b.Parts[backend.PartWords*job[0]:][:backend.PartWords]
		shift := uint(part[3] >> 24 & 15)
		cur := next[[2]uint32{part[2], part[6]}[job[1]]:][:backend.Bounds(shift)]
		cut, m0, a0 := uint8(part[3]), uint(part[5]&255), uint(part[5]>>8&255)
		q := part[4]
		sq := squeeze{lo1: uint(q & 255), hi1: uint(q >> 8 & 255), lo2: uint(q >> 16 & 255), hi2: uint(q >> 24)}
		sq.low1, sq.low2 = 1<<sq.lo1-1, 1<<sq.lo2-1
		for _, x := range b.Pats[job[2] : job[2]+job[3]] {
			k := subKey(x, m0, a0, cut, shift)
			sorted[cur[k]] = sq.apply(x)
			cur[k]++
		}
	}
	return sorted
}

// joinHost is the device's join kernels in Go: the sort of each side by
// sub-bucket, each sort job taking its sub-bucket's next free places, and
// the matching by brute force, each block's patterns against every item
// of the sub-buckets it is matched with (those of the buckets that share
// no cut bit with its own, less those holding an extra bit all its
// patterns hold), a pair counted (with its weight) when the two share no
// bit.
func joinHost(b *backend.JoinBatch) {
	sorted := sortTwin(b)
	b.Out = append(b.Out[:0], make([]uint64, b.Blocks())...)
	for j := range b.Blocks() {
		job := b.Jobs[backend.JobWords*j:][:backend.JobWords]
		part := b.Parts[backend.PartWords*job[2]:][:backend.PartWords]
		block := sorted[job[0] : job[0]+job[1]]
		shift := uint(part[3] >> 24 & 15)
		bounds := b.Bounds[part[6]:][:backend.Bounds(shift)]
		v, cut, long := uint8(job[3]), uint8(part[3]), part[3]>>8&1 != 0
		lo, hi, and := job[4], job[5], job[6] // the job's range of the items, in the sub-buckets' order
		rest := cut &^ v
		at := uint32(0) // the items before sub-bucket k
		for u := rest; ; u = (u - 1) & rest {
			wt := uint64(1)
			if long {
				wt = longWeight(v, u)
			}
			for e := range uint32(1) << shift {
				if e&and != 0 || wt == 0 {
					continue
				}
				k := uint32(u)<<shift | e
				for i, x := range sorted[bounds[k]:bounds[k+1]] {
					if c := at + uint32(i); c < lo || c >= hi {
						continue
					}
					for _, p := range block {
						if x&p == 0 {
							b.Out[j] += wt
						}
					}
				}
				at += bounds[k+1] - bounds[k]
			}
			if u == 0 {
				break
			}
		}
	}
}

// TestDeviceJoinTasks counts every task of the join plans of n = 4..14
// through a device's join with the kernel's Go twin, under tunings that
// launch a batch mid-task and mid-way, and checks each task's result
// against the CPU's, field for field (nodes included).
func TestDeviceJoinTasks(t *testing.T) {
	maxN := 14
	if testing.Short() {
		maxN = 12
	}
	for n := 4; n <= maxN; n++ {
		plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: partition.Join})
		require.NoError(t, err)
		want := map[int]Result{}
		_, err = Run(context.Background(), plan, Options{Workers: 1, OnResult: func(r Result) { want[r.Task] = r }})
		require.NoError(t, err)
		// Where the host lists, the batch's array takes its full size at
		// once: the smallest batch the knob allows keeps the race
		// detector's run short (a default batch took 1.3 s under it).
		for _, tune := range []backend.Knobs{{}, {Block: 32, Batch: 64, Hosts: 3}, {List: backend.ByHost, Batch: 1 << 16}, {List: backend.ByHost, Batch: 64}, {List: backend.ByDevice, Hosts: 2},
			{List: backend.ByHost, Sort: backend.ByHost, Batch: 1 << 16}, {List: backend.ByHost, Sort: backend.ByHost, Batch: 64, Block: 64}, {List: backend.ByDevice, Sort: backend.ByHost, Batch: 64}} {
			dev := &hostDevice{}
			got := map[int]Result{}
			c, err := Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{dev}, Tuning: tune,
				OnResult: func(r Result) { got[r.Task] = r }})
			require.NoError(t, err)
			assert.Equal(t, want, got, "n=%d tuning %+v", n, tune)
			assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d", n)
			assert.Positive(t, dev.launches, "n=%d", n)
		}
	}
}

// TestDeviceJoinPasses counts the largest tasks of n = 18 through a
// device's join with the smallest buffers, so that sides are listed in
// pieces (the west side again for each piece of the east side), and with
// the default ones, whose sides of over 8,192 patterns take the widest
// cut (all 256 buckets), against the CPU's results.
func TestDeviceJoinPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the brute-force twin takes seconds")
	}
	plan, err := partition.Make(context.Background(), partition.Job{N: 18, Method: partition.Join})
	require.NoError(t, err)
	var most uint64
	for _, t := range plan.Tasks {
		most = max(most, t.Cost)
	}
	skip := make([]bool, len(plan.Tasks))
	for i := range skip {
		skip[i] = i%29 != 0 || plan.Tasks[i].Cost < most/3
	}
	memory := minMemory(plan, 2) + 2*joinBatchBytes(backend.DefaultKnobs.WithDefaults())
	want := map[int]Result{}
	_, err = Run(context.Background(), plan, Options{Workers: 1, Skip: skip, Memory: memory, OnResult: func(r Result) { want[r.Task] = r }})
	require.NoError(t, err)
	for _, mem := range []int64{memory, 0} {
		got := map[int]Result{}
		_, err = Run(context.Background(), plan, Options{Workers: -1, Skip: skip, Memory: mem, Devices: []backend.Device{&hostDevice{}},
			Tuning: backend.Knobs{Hosts: 2}, OnResult: func(r Result) { got[r.Task] = r }})
		require.NoError(t, err)
		require.NotEmpty(t, want)
		assert.Equal(t, want, got, "memory %d", mem)
	}
}

// TestDeviceTasks cuts every task of the mirror and sym plans of n = 1..15
// into starts, counts them with the device kernels' twin, and checks each
// task's result against the CPU's, field for field (nodes included), so
// that a journal or shard file does not tell where a task was counted.
func TestDeviceTasks(t *testing.T) {
	maxN := 15
	if testing.Short() {
		maxN = 13
	}
	for n := 1; n <= maxN; n++ {
		for _, m := range []partition.Method{partition.Mirror, partition.Sym} {
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for i := range plan.Tasks {
				var b searchBatch
				b.reset(n)
				got, cut := b.add(plan, i)
				if cut {
					searchHost(&b.SearchBatch)
					rs := b.results(plan)
					require.Len(t, rs, 1)
					got = rs[0]
				}
				want := runTask(plan, &plan.Tasks[i], nil)
				want.Task = i
				require.Equal(t, want, got, "n=%d %s task %s (cut %v)", n, m, plan.Tasks[i].ID, cut)
			}
		}
	}
}

// TestDeviceRun counts whole boards with devices beside CPU workers and
// alone, against the published counts.
func TestDeviceRun(t *testing.T) {
	for n := 0; n <= 14; n++ {
		for _, m := range []partition.Method{partition.Mirror, partition.Sym} {
			plan, err := partition.Make(context.Background(), partition.Job{N: n, Method: m})
			require.NoError(t, err)
			for _, workers := range []int{-1, 2} {
				dev := &hostDevice{}
				var results int
				c, err := Run(context.Background(), plan, Options{Workers: workers, Devices: []backend.Device{dev}, OnResult: func(Result) { results++ }})
				require.NoError(t, err)
				assert.Equal(t, wide.Of(known.Total[n]), c.Total, "n=%d %s workers %d", n, m, workers)
				assert.Equal(t, len(plan.Tasks), results, "n=%d %s: one result a task", n, m)
				if m == partition.Sym {
					assert.Equal(t, wide.Of(known.Unique[n]), c.Unique, "n=%d unique", n)
				}
			}
		}
	}
}

// searchHost is the device kernels in Go, on the host: what a device
// computes for a batch, start by start, with walkGo and nextGo; the tests
// check it against the CPU's tasks.
func searchHost(b *backend.SearchBatch) {
	b.Out = append(b.Out[:0], make([]uint64, 5*b.Len())...)
	for j := range b.Cols {
		o := b.Out[5*j : 5*j+5 : 5*j+5]
		s := start{Row: b.Row, Cols: b.Cols[j], LD: b.LD[j], RD: b.RD[j]}
		mode := b.Mode[j]
		if backend.Mode(mode&3) == backend.ModeWalk {
			o[0], o[4] = walkGo(s, b.Posib[j])
			continue
		}
		var bs bannedSearch
		bs.n = b.N
		ban := (mode >> 8) * 64
		copy(bs.ban[:], b.Bans[ban:ban+64])
		for r := 0; r < s.Row; r++ {
			bs.board[r&63] = 1 << ((b.Path[j] >> (8 * r)) & 0xff)
		}
		if backend.Mode(mode&3) == backend.ModeBanned {
			bs.weight = 1
		}
		bs.flip = mode&4 != 0
		bs.d, bs.posib = 1, b.Posib[j]
		bs.lv[1] = bannedLevel{cols: s.Cols, dls: s.LD << 1, drs: s.RD >> 1, row: uint64(s.Row)}
		for bs.nextGo() {
			bs.leaf()
		}
		o[0], o[1], o[2], o[3], o[4] = bs.r.Total, bs.r.Unique, bs.r.PointSym, bs.r.Rot90Sym, bs.nodes
	}
}

// TestPlaceAtTheEnd places a part whose shorter west side is transposed
// at the very end of the batch's array: its sides are sliced by their own
// lengths (slicing the east side's length from the west side's place ran
// past the array there).
func TestPlaceAtTheEnd(t *testing.T) {
	f := &joinFeeder{js: newJoinScratch(minJoinChunk), pending: []pendingTask{{open: true}}}
	f.b.Tuning = launch(backend.DefaultKnobs)
	f.b.Pats = make([]uint64, 10, 710)
	const ne, nw = 600, 100 // two blocks east, one west: the west side is transposed
	require.Less(t, matchCost(nw, ne), matchCost(ne, nw))
	f.place(newSieve(16, newWindow(16)), 10, ne, nw, 5)
	require.Len(t, f.b.Parts, backend.PartWords)
	assert.Equal(t, []uint32{10 + ne, 10}, f.b.Parts[:2], "T, then I")
	assert.Len(t, f.b.Pats, 710)
}

// splitDevice is hostDevice counting the launches' jobs that are a later
// piece of a block cut by shape (their items start past 0).
type splitDevice struct {
	hostDevice
	pieces int
}

func (d *splitDevice) Join(ctx context.Context, b *backend.JoinBatch) error {
	for j := range b.Blocks() {
		if b.Jobs[backend.JobWords*j+4] > 0 {
			d.pieces++
		}
	}
	return d.hostDevice.Join(ctx, b)
}

// TestShapedJobs cuts every job past a few items into pieces (minJobItems
// lowered to 8, a table costing nothing) and checks that the counts are exact, by the host
// listing and by the device's.
func TestShapedJobs(t *testing.T) {
	defer func(m, t int64) { minJobItems, tableItems = m, t }(minJobItems, tableItems)
	minJobItems, tableItems = 8, 0
	for _, list := range []int{backend.ByHost, backend.ByDevice} {
		plan, err := partition.Make(context.Background(), partition.Job{N: 13, Method: partition.Join})
		require.NoError(t, err)
		d := &splitDevice{}
		c, err := Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{d}, Tuning: backend.Knobs{List: list, Sort: backend.ByHost, Hosts: 2, Batch: 1 << 16}})
		require.NoError(t, err)
		total, ok := c.Total.Uint64()
		require.True(t, ok)
		assert.Equal(t, uint64(known.Total[13]), total, "list=%d", list)
		assert.Positive(t, d.pieces, "list=%d: jobs were cut", list)
	}
}

// TestSizeBatch sizes a device's default batch from its traits: the
// default where it tells none or runs on the CPU, the compute units'
// share (at least minBatch) on a small device, halved until each host
// goroutine's buffers fit the device's memory and largest buffer; a
// batch given is kept.
func TestSizeBatch(t *testing.T) {
	def := backend.DefaultKnobs.Batch
	for _, c := range []struct {
		tr    backend.Traits
		hosts int
		want  int
	}{
		{backend.Traits{}, 4, def},
		{backend.Traits{OnCPU: true, ComputeUnits: 2}, 4, def},
		{backend.Traits{ComputeUnits: 132, Memory: 141 << 30, MaxAlloc: 35 << 30}, 16, def}, // an H200
		{backend.Traits{ComputeUnits: 40}, 4, 2 << 20},
		{backend.Traits{ComputeUnits: 8}, 4, minBatch},
		{backend.Traits{ComputeUnits: 132, MaxAlloc: 8 << 20}, 4, 1 << 20},
		{backend.Traits{ComputeUnits: 132, Memory: 1 << 30}, 16, 1 << 21},
		{backend.Traits{Memory: 1 << 20}, 16, 1 << 16}, // the bound's floor: joinKernels refuses it
	} {
		assert.Equal(t, c.want, sizeBatch(c.tr, c.hosts), "%+v, %d hosts", c.tr, c.hosts)
	}
	gpu := &tracedDevice{traits: backend.Traits{ComputeUnits: 40, MaxGroup: 100}}
	r := resolve(backend.Knobs{}, []backend.Device{gpu})
	assert.Equal(t, 96, r.Group, "group within the device's largest, a multiple of 32")
	g := forDevice(r, gpu)
	assert.Equal(t, 2<<20, g.Batch)
	assert.Equal(t, backend.ByDevice, g.List)
	assert.Equal(t, 32, g.Popcount)
	assert.Equal(t, backend.LayoutPlanar, g.Layout)
	assert.Equal(t, 1<<18, forDevice(resolve(backend.Knobs{Batch: 1 << 18}, []backend.Device{gpu}), gpu).Batch, "a batch given is kept")
	cpu := &tracedDevice{traits: backend.Traits{OnCPU: true, ComputeUnits: 2}}
	assert.Equal(t, backend.Knobs{Group: 128, Block: 256, Items: 1, Batch: def, Hosts: 3, List: backend.ByHost, Sort: backend.ByHost, Cut: backend.CutNever, Popcount: 64, Chunk: 6, Layout: backend.LayoutVector},
		forDevice(resolve(backend.Knobs{Hosts: 3}, []backend.Device{cpu}), cpu))
}

// tracedDevice is hostDevice telling traits.
type tracedDevice struct {
	hostDevice
	traits backend.Traits
}

func (d *tracedDevice) Traits() backend.Traits { return d.traits }

// TestLaunchTails lists a sample of n = 20's tasks (one shard of 64) for
// a device that lists and cuts, at the default batch, and checks that
// shape keeps every launch's largest job within 1.2 times its mean, in
// modelled time (jobCost: its items and its table, what a work-group's
// time grows with); it logs tail=N.NN, the largest such ratio. The
// launches are counted on no device: the simulated one takes no time.
func TestLaunchTails(t *testing.T) {
	if testing.Short() {
		t.Skip("lists a 64th of n = 20")
	}
	plan, err := partition.MakeShard(context.Background(), partition.Job{N: 20, Method: partition.Join}, 5, 64)
	require.NoError(t, err)
	d := &simDevice{concurrent: true}
	var prof JoinProfile
	_, err = Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{d}, Tuning: backend.Knobs{List: backend.ByDevice, Cut: backend.CutAlways, Hosts: 2}, Profile: &prof})
	require.NoError(t, err)
	require.NotEmpty(t, d.tails)
	worst := slices.Max(d.tails)
	t.Logf("tail=%.2f (the worst of %d launches; median %.2f), %d jobs a launch", worst, len(d.tails), median(slices.Clone(d.tails)), prof.Blocks/prof.Launches)
	assert.LessOrEqual(t, worst, 1.2+1e-9)
}

// TestShipOnce ships a list the cache keeps once while the batch's lists
// last, wherever ways and launches use it, and a worker's own list
// (refilled task by task) every time; lists past a quarter of the
// batch are emptied at the launch's end, and shipped anew.
func TestShipOnce(t *testing.T) {
	f := &joinFeeder{js: newJoinScratch(minJoinChunk)}
	kept := &quarterList{places: []uint64{1, 2, 3}}
	own := &f.js.own[1]
	own.places = []uint64{7, 8}
	assert.Equal(t, uint32(0), f.ship(kept))
	assert.Equal(t, uint32(3), f.ship(own))
	assert.Equal(t, uint32(0), f.ship(kept), "kept: shipped once")
	assert.Equal(t, uint32(5), f.ship(own), "own: shipped again")
	assert.Equal(t, []uint64{1, 2, 3, 7, 8, 7, 8}, f.b.Lists)
	f.b.Tuning.Batch = 4 * 7
	f.b.ListsSent = 7 // as the device does once it copies them
	assert.False(t, f.b.reset(), "within a quarter of the batch")
	assert.Equal(t, 7, f.b.ListsSent, "the device holds them")
	assert.Equal(t, uint32(0), f.ship(kept), "the next launch uses them where they are")
	assert.Equal(t, uint32(7), f.ship(own))
	assert.True(t, f.b.reset(), "past a quarter of the batch")
	assert.Empty(t, f.b.Lists)
	assert.Zero(t, f.b.ListsSent)
	clear(f.shipped) // as flush does when reset empties them
	assert.Equal(t, uint32(0), f.ship(kept), "shipped anew")
}

// TestDeviceSideAgrees: the memory a run sizes for its devices (sizeRun,
// holding them) is the one the library's plan computes from what the
// runtime lists of them (DeviceSide: how many, whether every one runs on
// the CPU), for every kind of device set: a GPU, a device on the CPU, two
// GPUs, a GPU beside a device on the CPU, with and without the hosts=
// and batch= knobs, for a join plan and a backtracking one.
func TestDeviceSideAgrees(t *testing.T) {
	gpu := func() backend.Device { return &tracedDevice{traits: backend.Traits{ComputeUnits: 132, MaxGroup: 1024}} }
	cpu := func() backend.Device {
		return &tracedDevice{traits: backend.Traits{OnCPU: true, ComputeUnits: 2, MaxGroup: 4096}}
	}
	sets := map[string][]backend.Device{
		"a GPU": {gpu()}, "a device on the CPU": {cpu()}, "two GPUs": {gpu(), gpu()}, "a GPU and a device on the CPU": {gpu(), cpu()},
	}
	for _, m := range []partition.Method{partition.Join, partition.Sym} {
		plan, err := partition.Make(context.Background(), partition.Job{N: 16, Method: m})
		require.NoError(t, err)
		for name, devices := range sets {
			for _, tune := range []backend.Knobs{{}, {Hosts: 3}, {Batch: 1 << 20}} {
				const workers = 2
				_, err := sizeRun(plan, Options{Devices: devices, Tuning: tune, Memory: 1}, workers)
				var me *MemoryError
				require.ErrorAs(t, err, &me, "%s, %s, %+v", m, name, tune)
				hosts, batches := DeviceSide(m == partition.Join, len(devices), allOnCPU(devices), tune)
				listers := workers + hosts*len(devices)
				assert.Equal(t, hosts*len(devices), me.Hosts, "%s, %s, %+v: host goroutines", m, name, tune)
				assert.Equal(t, listers, me.Workers, "%s, %s, %+v: goroutines that list", m, name, tune)
				assert.Equal(t, minMemory(plan, listers)+batches, me.Need, "%s, %s, %+v: memory", m, name, tune)
			}
		}
	}
}
