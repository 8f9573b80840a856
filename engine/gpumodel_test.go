package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nqueens/nqueens/internal/backend"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// The device join on a GPU, modelled: a device (modelDevice) that takes
// the engine's real batches, the GPU's way (the device lists, sorts and
// matches, jobs cut, counts 32 bits a lane, the table in planes), lists
// and sorts them as the kernels do (their Go twins), and replays the
// join kernel's table lookups warp by warp: 32 lanes on consecutive
// items of a bucket, as join.cl hands them out, each lookup of a chunk a
// load from every plane of the table, whose 32 lanes' words fall on
// banks by their values (a plane is a multiple of 32 words, so a value's
// bank is the same in every plane). A load takes as many wavefronts as
// the most distinct words one bank serves (equal words are broadcast).
// It counts the wavefronts of the lookups and of the table's builds, the
// items matched against a block and the bytes read from global memory,
// and turns them into a GPU's SM-cycles from its data sheet:
// local memory one wavefront an SM-cycle; the integer pipes 64 lanes an
// SM-cycle (a plane's AND for each lookup, its popcount's add and the
// count's); the popcounts 16 lanes an SM-cycle. The kernel's time is the
// largest of the three over the SMs at their boost clock: a throughput
// model, that assumes the warps hide every latency (occupancy is
// reported beside it), no launch tails and no wait for the host (the
// host's listing and planning are measured apart: docs/devices.md).
// Every figure it gives is a model, not a measurement: TestGPUModel
// prints them.

// gpu is a GPU's data sheet, as the model reads it.
type gpu struct {
	name        string
	sms         int
	clock       float64 // boost, GHz
	localPerSM  int     // bytes of shared memory an SM
	regsPerSM   int     // 32-bit registers an SM
	threadsPerS int     // the most threads an SM holds
}

// The GPUs the model knows: NVIDIA's data sheets (H100 SXM5, H200 SXM:
// 132 SMs at 1.98 GHz boost, 228 KiB of shared memory and 64K registers
// an SM, 2,048 threads). The model binds on local memory, which the two
// share: HBM, where they differ, does not enter it.
var gpus = []gpu{
	{name: "h100", sms: 132, clock: 1.98, localPerSM: 228 << 10, regsPerSM: 64 << 10, threadsPerS: 2048},
	{name: "h200", sms: 132, clock: 1.98, localPerSM: 228 << 10, regsPerSM: 64 << 10, threadsPerS: 2048},
}

// modelWork is what the replay counted.
type modelWork struct {
	itemBlocks  int64 // items matched against a block, over the blocks (active lanes)
	warpLoads   int64 // warp-wide lookup instructions (one a chunk a warp-step, before the planes)
	wavefronts  int64 // local-memory wavefronts of the lookups, every plane
	buildWaves  int64 // local-memory wavefronts of the table builds' stores
	globalBytes int64 // bytes the matching reads from global memory (items and blocks)
	blocks      int64
	// plain and split are the item-blocks of the batches' parts re-cut
	// the CPU's way (blocks within a bucket, Block patterns each): as
	// the device matches them (plain), and with the CPU's extra bits'
	// split, each bucket's T side sorted by its extra bits and a block
	// skipping the items that hold an extra bit all its patterns hold
	// (split): what the split would save the device.
	plain, split int64
	// deep and deepBlocks are the item-blocks and blocks of a deeper cut
	// by the same extra bits: blocks of their own in each sub-bucket,
	// each skipping the items that hold any of its sub-bucket's extra
	// bits; key2 and key2Blocks the same of a cut by two more key bits
	// (the two lowest extra bits: blocks of their own in each pair of
	// them, split by the other extra bits as before); splitBlocks the
	// split's blocks, before jobs are cut.
	deep, deepBlocks, key2, key2Blocks, splitBlocks int64
}

func (w *modelWork) add(v modelWork) {
	w.itemBlocks += v.itemBlocks
	w.warpLoads += v.warpLoads
	w.wavefronts += v.wavefronts
	w.buildWaves += v.buildWaves
	w.globalBytes += v.globalBytes
	w.blocks += v.blocks
	w.plain += v.plain
	w.split += v.split
	w.deep += v.deep
	w.deepBlocks += v.deepBlocks
	w.splitBlocks += v.splitBlocks
	w.key2 += v.key2
	w.key2Blocks += v.key2Blocks
}

// modelDevice is the modelled GPU: a backend.Joiner that lists by the
// listing kernel's twin, sorts as the sort kernel does and replays the
// join kernel's lookups; its counts are not the board's (it matches
// nothing), and the engine's run reports the host's side as for any
// device.
type modelDevice struct {
	mu   sync.Mutex
	work modelWork
}

func (d *modelDevice) Name() string { return "modelled GPU" }
func (d *modelDevice) Traits() backend.Traits {
	return backend.Traits{MaxGroup: 1024, ComputeUnits: 132, Memory: 80 << 30, MaxAlloc: 20 << 30}
}
func (d *modelDevice) JoinsConcurrently() bool         { return true }
func (d *modelDevice) ReleaseBatch(*backend.JoinBatch) {}
func (d *modelDevice) ListHalves(_ context.Context, b *backend.JoinBatch) error {
	listTwin(b)
	return nil
}

func (d *modelDevice) Join(_ context.Context, b *backend.JoinBatch) error {
	b.Out = append(b.Out[:0], make([]uint64, b.Blocks())...)
	w := replay(b, sortTwin(b))
	w.plain, w.split, w.deep, w.deepBlocks, w.key2, w.key2Blocks, w.splitBlocks = extraSplit(b)
	d.mu.Lock()
	d.work.add(w)
	d.mu.Unlock()
	return nil
}

// replay walks the join kernel's work on the batch's sorted sides: for
// each job its table's build and, for each bucket it is matched with,
// the warp-steps over its items (32 consecutive items a warp, lanes past
// the range idle), each a lookup a chunk in every plane.
func replay(b *backend.JoinBatch, sorted []uint64) modelWork {
	var w modelWork
	t := b.Tuning
	planes := int64(t.Block / 32)
	bitsPer := uint(t.ChunkBits)
	vals := uint64(1)<<bitsPer - 1
	for j := range b.Blocks() {
		job := b.Jobs[backend.JobWords*j:][:backend.JobWords]
		part := b.Parts[backend.PartWords*job[2]:][:backend.PartWords]
		shift := uint(part[3] >> 24 & 15)
		bounds := b.Bounds[part[6]:][:backend.Bounds(shift)]
		v, cut, long := uint8(job[3]), uint8(part[3]), part[3]>>8&1 != 0
		chunks := min((int(part[3]>>16&255)*chunkBits+t.ChunkBits-1)/t.ChunkBits, b.Chunks)
		lookups := max(chunks, b.Squeezed)
		// The build: built×(values/8) work-items of 8 stores each, a
		// store a plane; a warp's stores fall on 32 banks (join.cl
		// rotates them by lane).
		built := int64(max(chunks, b.Squeezed)) * int64(vals+1) / 8
		w.buildWaves += (built + 31) / 32 * 8 * planes
		w.blocks++
		w.globalBytes += 8 * int64(job[1])
		// The job's items: its range [from, to) of the concatenation of
		// the sub-buckets it matches, 32 consecutive positions a warp.
		var items []uint64
		rest := cut &^ v
		for u := rest; ; u = (u - 1) & rest {
			if !long || longWeight(v, u) != 0 { // a bucket of weight 0 is not matched
				for e := range uint32(1) << shift {
					if e&job[6] == 0 {
						k := uint32(u)<<shift | e
						items = append(items, sorted[bounds[k]:bounds[k+1]]...)
					}
				}
			}
			if u == 0 {
				break
			}
		}
		items = items[job[4]:job[5]]
		for s := 0; s < len(items); s += 32 {
			lanes := items[s:min(s+32, len(items))]
			w.itemBlocks += int64(len(lanes))
			w.globalBytes += 8 * int64(len(lanes))
			for k := range lookups {
				w.warpLoads++
				w.wavefronts += planes * int64(bankWavefronts(lanes, uint(k)*bitsPer, vals))
			}
		}
	}
	return w
}

// extraSplit counts the item-blocks of b's parts, from their sides as
// listed (b.Pats, not squeezed), re-cut without the extra bits' split
// and with all of the CPU's (sieve.splits: none below wideCut patterns a
// side, four bits below wideSplit pairs, six from there, which the CPU
// weighs against four by its model; a device splits by
// four at most, backend.SplitBits), and the item-blocks and blocks of a
// deeper cut by the same bits (modelWork.deep).
func extraSplit(b *backend.JoinBatch) (plain, split, deep, deepBlocks, key2, key2Blocks, splitBlocks int64) {
	block := b.Tuning.Block
	for p := range len(b.Parts) / backend.PartWords {
		part := b.Parts[backend.PartWords*p:][:backend.PartWords]
		had := uint(part[3] >> 24 & 15)
		bt := b.Bounds[part[2]:][:backend.Bounds(had)]
		bi := b.Bounds[part[6]:][:backend.Bounds(had)]
		cut, long := uint8(part[3]), part[3]>>8&1 != 0
		m0, a0 := uint(part[5]&255), uint(part[5]>>8&255)
		nT, nI := int(bt[len(bt)-1]-bt[0]), int(bi[len(bi)-1]-bi[0])
		sv := sieve{m0: m0, a0: a0, extra: m0 >= 1, wide: wideSplit}
		shift := sv.splits(nT, nI)
		_, _, f0, f1 := sv.shifts()
		extra := func(x uint64) int {
			return fineAt(x, f0, f1) & (1<<shift - 1)
		}
		var ts, is [256][]int // each bucket's patterns' extra bits
		for _, x := range b.Pats[bt[0]:bt[len(bt)-1]] {
			k := keyAt(x, m0, a0) & cut
			ts[k] = append(ts[k], extra(x))
		}
		for _, x := range b.Pats[bi[0]:bi[len(bi)-1]] {
			k := keyAt(x, m0, a0) & cut
			is[k] = append(is[k], extra(x))
		}
		for v := range 256 {
			if len(ts[v]) == 0 {
				continue
			}
			slices.Sort(ts[v])
			rest := cut &^ uint8(v)
			for lo := 0; lo < len(ts[v]); lo += block {
				splitBlocks++
				common := 1<<shift - 1
				for _, e := range ts[v][lo:min(lo+block, len(ts[v]))] {
					common &= e
				}
				for u := rest; ; u = (u - 1) & rest {
					if !long || longWeight(uint8(v), u) != 0 {
						plain += int64(len(is[u]))
						for _, e := range is[u] {
							if e&common == 0 {
								split++
							}
						}
					}
					if u == 0 {
						break
					}
				}
			}
			// The deeper cut: each run of one sub-bucket its own blocks.
			for lo := 0; lo < len(ts[v]); {
				e := ts[v][lo]
				hi := lo
				for hi < len(ts[v]) && ts[v][hi] == e {
					hi++
				}
				blocks := int64((hi - lo + block - 1) / block)
				deepBlocks += blocks
				for u := rest; ; u = (u - 1) & rest {
					if !long || longWeight(uint8(v), u) != 0 {
						for _, x := range is[u] {
							if x&e == 0 {
								deep += blocks
							}
						}
					}
					if u == 0 {
						break
					}
				}
				lo = hi
			}
			// Two more key bits: the bucket's patterns by their two
			// lowest extra bits, then the others.
			if shift >= 2 {
				byKey := slices.Clone(ts[v])
				slices.SortFunc(byKey, func(a, b int) int { return (a&3<<8 | a>>2) - (b&3<<8 | b>>2) })
				for lo := 0; lo < len(byKey); {
					hi := lo
					for hi < len(byKey) && byKey[hi]&3 == byKey[lo]&3 {
						hi++
					}
					for p := lo; p < hi; p += block {
						key2Blocks++
						common := 1<<shift - 1
						for _, e := range byKey[p:min(p+block, hi)] {
							common &= e
						}
						for u := rest; ; u = (u - 1) & rest {
							if !long || longWeight(uint8(v), u) != 0 {
								for _, x := range is[u] {
									if x&common == 0 {
										key2++
									}
								}
							}
							if u == 0 {
								break
							}
						}
					}
					lo = hi
				}
			} else {
				key2Blocks += int64((len(ts[v]) + block - 1) / block)
				for u := rest; ; u = (u - 1) & rest {
					if !long || longWeight(uint8(v), u) != 0 {
						key2 += int64((len(ts[v])+block-1)/block) * int64(len(is[u]))
					}
					if u == 0 {
						break
					}
				}
			}
		}
	}
	return plain, split, deep, deepBlocks, key2, key2Blocks, splitBlocks
}

// bankWavefronts is how many wavefronts one plane's load takes whose 32
// lanes look up the values (x >> shift) & vals of their items: the most
// distinct values that fall on one of the 32 banks (a value's bank is
// its residue mod 32).
func bankWavefronts(items []uint64, shift uint, vals uint64) int {
	var seen [4]uint32 // bit b of seen[q]: value 32q + b looked up
	for _, x := range items {
		v := x >> shift & vals
		seen[v>>5] |= 1 << (v & 31)
	}
	most := 0
	for b := range 32 {
		c := int(seen[0]>>b&1 + seen[1]>>b&1 + seen[2]>>b&1 + seen[3]>>b&1)
		most = max(most, c)
	}
	return max(most, 1)
}

// modelLine is a GPU's modelled figures for a replay of work that found
// solutions of the n×n board: ps a solution, the board's kernel seconds
// (its published total of solutions at that rate), and what binds.
func modelLine(g gpu, n int, t backend.Tuning, work modelWork, solutions float64) (ps float64, line string) {
	total := float64(known.Total[n])
	planes := float64(t.Block / 32)
	local := float64(work.wavefronts + work.buildWaves)
	// Per warp: a plane's AND a lookup; the popcount's add and the
	// count's a plane; and an item's walk of its job's sub-buckets
	// (join.cl's locate: a compare, a subtract, an add, the weight's
	// shift), 4 an item.
	alu := float64(work.warpLoads)*planes + (2*planes+4)*float64(work.itemBlocks)/32
	alu = alu * 32 / 64                           // 32 lanes an instruction, 64 lanes an SM-cycle
	pop := float64(work.itemBlocks) * planes / 16 // a popcount a plane an item, 16 an SM-cycle
	cycles := max(local, alu, pop)
	bound := "local memory"
	switch cycles {
	case alu:
		bound = "the integer pipes"
	case pop:
		bound = "popcounts"
	}
	seconds := cycles / float64(g.sms) / (g.clock * 1e9)
	ps = seconds / solutions * 1e12
	// Occupancy: a work-group's local memory (the table, its rows and
	// sums, joinLocalBytes's) and GROUP threads bound the groups an SM
	// holds.
	localBytes := 8*t.Block + 4*t.Block/32 + 4*b2i(t.ChunkBits)*(1<<t.ChunkBits)*(t.Block/32) + 8*t.Group
	groups := min(g.localPerSM/localBytes, g.threadsPerS/t.Group)
	line = fmt.Sprintf("model %s: %.1f ps/solution (%s binds: %.2f local wavefronts, %.2f integer and %.2f popcount SM-cycles an item-block; %.2f item-blocks and %.0f global bytes a solution; %d work-groups of %d an SM), n%d %.3g s of kernels",
		g.name, ps, bound, local/float64(work.itemBlocks), alu/float64(work.itemBlocks), pop/float64(work.itemBlocks),
		float64(work.itemBlocks)/solutions, float64(work.globalBytes)/solutions, groups, t.Group, n, ps*total/1e12)
	return ps, line
}

// b2i is the chunks a table holds at n = 22 for chunks of bits bits: its
// rows, for the local memory's size (joinChunks of n = 22).
func b2i(bits int) int {
	most, _ := joinChunks(22, bits)
	return most
}

func TestBankWavefronts(t *testing.T) {
	same := make([]uint64, 32)
	assert.Equal(t, 1, bankWavefronts(same, 0, 63), "one value: a broadcast")
	var split []uint64
	for i := range uint64(32) {
		split = append(split, i*2)
	}
	assert.Equal(t, 2, bankWavefronts(split, 0, 63), "values 0..62 even: v and v+32 share a bank")
	assert.Equal(t, 1, bankWavefronts(split, 0, 31), "5 bits: 32 values on 32 banks")
	four := []uint64{5, 37, 69, 101}
	assert.Equal(t, 4, bankWavefronts(four, 0, 127), "7 bits: four values on bank 5")
	assert.Equal(t, 1, bankWavefronts([]uint64{5 << 6, 6 << 6}, 6, 63), "the chunk's own bits")
}

// TestGPUModel replays the whole plan of n = 16 through the modelled GPU
// and checks that the replay saw the items the engine's own profile
// counts; with NQUEENS_GPU_MODEL=1 it replays tasks of n = 22 (a seeded
// sample) at 6- and 5-bit chunks and prints the model's lines for each
// GPU (docs/devices.md's model table).
func TestGPUModel(t *testing.T) {
	run := func(n int, chunk, hosts int, skip []bool, plan *partition.Plan) (modelWork, JoinProfile, backend.Tuning, time.Duration) {
		d := &modelDevice{}
		var prof JoinProfile
		tune := backend.Knobs{Chunk: chunk, Hosts: hosts}
		began := time.Now()
		_, err := Run(context.Background(), plan, Options{Workers: -1, Devices: []backend.Device{d}, Tuning: tune, Skip: skip, Profile: &prof})
		require.NoError(t, err)
		r := forDevice(resolve(tune, []backend.Device{d}), d)
		return d.work, prof, launch(r), time.Since(began)
	}
	plan, err := partition.Make(context.Background(), partition.Job{N: 16, Method: partition.Join})
	require.NoError(t, err)
	work, prof, tn, _ := run(16, 0, 0, nil, plan)
	assert.Equal(t, prof.ItemBlocks, work.itemBlocks, "the replay's items are the engine's")
	assert.Equal(t, prof.Blocks, work.blocks)
	assert.True(t, tn.Planar && tn.Cut && tn.Popcount == 32, "the GPU's way: %+v", tn)
	t.Logf("n = 16, the whole plan, chunk=%d:", tn.ChunkBits)
	for _, g := range gpus {
		ps, line := modelLine(g, 16, tn, work, float64(known.Total[16]))
		assert.Positive(t, ps)
		t.Log(line)
	}
	if os.Getenv("NQUEENS_GPU_MODEL") != "1" {
		return
	}
	plan, err = partition.Make(context.Background(), partition.Job{N: 22, Method: partition.Join})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(22, 6))
	skip := make([]bool, len(plan.Tasks))
	for i := range skip {
		skip[i] = true
	}
	for _, i := range rng.Perm(len(plan.Tasks))[:24] {
		skip[i] = false
	}
	// The sample's solutions: the CPU's count of its tasks.
	c, err := Run(context.Background(), plan, Options{Skip: skip})
	require.NoError(t, err)
	solutions := c.Total.Float64()
	for _, chunk := range []int{6, 5} {
		// The host's share is TestDeviceWorkParity's to measure: these
		// 24 scattered tasks each list quarter lists of their own.
		work, _, tn, wall := run(22, chunk, 0, skip, plan)
		t.Logf("n = 22, %d tasks, %.3g solutions, chunk=%d: replayed in %v (%d blocks, %d item-blocks); re-cut the CPU's way %.3f item-blocks a solution without the extra bits' split, %.3f with all of it (four bits: no sides of n = 22 hold 2^40 pairs)",
			c.Tasks, solutions, chunk, wall.Round(time.Second), work.blocks, work.itemBlocks, float64(work.plain)/solutions, float64(work.split)/solutions)
		// The deeper cut, by the replay's own local memory an item-block
		// and a block's build (local memory binds).
		builds := float64(work.deepBlocks) / float64(work.splitBlocks)
		local := float64(work.wavefronts)/float64(work.itemBlocks)*float64(work.deep) + float64(work.buildWaves)*builds
		t.Logf("a deeper cut by the same extra bits (blocks of their own in each sub-bucket): %.3f item-blocks a solution, %.2f× the blocks; local memory %.2f× the split's",
			float64(work.deep)/solutions, builds, local/float64(work.wavefronts+work.buildWaves))
		builds = float64(work.key2Blocks) / float64(work.splitBlocks)
		local = float64(work.wavefronts)/float64(work.itemBlocks)*float64(work.key2) + float64(work.buildWaves)*builds
		t.Logf("a cut by two more key bits (blocks of their own in each pair of the lowest extra bits, split by the rest): %.3f item-blocks a solution, %.2f× the blocks; local memory %.2f× the split's",
			float64(work.key2)/solutions, builds, local/float64(work.wavefronts+work.buildWaves))
		for _, g := range gpus {
			_, line := modelLine(g, 22, tn, work, solutions)
			t.Log(line)
		}
	}
}
