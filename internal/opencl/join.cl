// The join kernels of nqueens: the listing of the sides, the sieve's sort
// and the matching of the join method on a device (engine/joindevice.go, backend.JoinBatch, whose
// Go twin joinHost is in engine/device_test.go).
//
// sort: a work-group takes one sort job (up to SORTCHUNK patterns of one
// side of a part), counts its patterns per sub-bucket in local memory,
// takes a run of places in each sub-bucket with one atomic add per
// sub-bucket, and writes each pattern, squeezed, to its place.
//
// join: a work-group takes one block of up to BLOCK sorted patterns of
// one side (a job), builds a table of them in local memory, and counts,
// for every item of its range of the other side's sub-buckets that it
// matches (those of the buckets that share no cut bit with the block's
// bucket, less those holding an extra bit all the block's patterns
// hold), the block's patterns that share no bit with the item. The table is the CPU's (engine/match.go) in 32-bit words: for
// chunk k (bits 6k..6k+5 of a pattern) and each of its 64 values, WORDS
// words whose bit j is set when pattern 32w+j of the block is valid and
// shares no bit with the value there. An item ANDs the entries its
// chunks select and counts the bits left.
//
// Built per board and tuning: CHUNKBITS, the bits of a table chunk (5, 6
// or 7: each chunk's rows are 32, 64 or 128 values); CHUNKS, the most chunks a
// pattern of the board has; SQUEEZED, the chunks of one without the
// widest cut's bits; BLOCK, the patterns of a block (32, 64, 128, 256 or 512);
// GROUP, the join's work-group size; ITEMS, the items a work-item takes
// per step; CUT, POPCOUNT and PLANAR, backend.Tuning.Defines'. The batch's
// layout, backend.LayoutDefines: PARTWORDS, the words of a part;
// SLOTWORDS and LISTINGWORDS, the words of a listed side and of a
// listing; SORTCHUNK, the most patterns of a sort job; SPLITBITS, the
// most extra bits a part's buckets are split by.
//
// part (PARTWORDS words): first pattern of its T side and of its I side,
// first index of its T side's bounds, cut | long<<8 | chunks<<16 |
// shift<<24, the squeeze lo1 | hi1<<8 | lo2<<16 | hi2<<24, the key's
// shifts m0 | a0<<8, first index of its I side's bounds. A side's bounds:
// where each of its 256<<shift sub-buckets (key<<shift | extra bits)
// begins, and the end. sort job: part, side, first pattern, patterns.
// join job (8 words): first sorted pattern, patterns, part, bucket v, the
// range of its block's items it matches (from, to: positions in the
// concatenation of the sub-buckets it matches, in the order the kernel
// walks them), the extra bits every pattern of its block holds (held), a
// word of padding. out: one word a join job, its weighted count.

#if !defined(CHUNKS) || !defined(SQUEEZED) || !defined(BLOCK) || !defined(GROUP) || !defined(ITEMS) || !defined(SORTGROUP) || \
	!defined(LISTGROUP)
#error "the board's and the tuning's defines come from the build options (device.go's joinKernels)"
#endif
#if !defined(CUT) || !defined(POPCOUNT) || !defined(CHUNKBITS) || !defined(PLANAR)
#error "CUT, POPCOUNT, CHUNKBITS and PLANAR come from backend.Tuning.Defines"
#endif
#if !defined(PARTWORDS) || !defined(SLOTWORDS) || !defined(LISTINGWORDS) || !defined(SORTCHUNK) || !defined(SPLITBITS)
#error "the batch's layout comes from backend.LayoutDefines"
#endif
#define CHUNKVALS (1u << CHUNKBITS)
#define SORTPER (SORTCHUNK / SORTGROUP)
#define WORDS (BLOCK / 32)

// vec is a table entry: WORDS words, one OpenCL vector, so that an item's
// step is one load and one AND of a vector (a CPU device's SIMD
// registers; a GPU's lanes take the words one by one). cvec holds the
// counts: with POPCOUNT 32 a 32-bit word a lane, 32-bit popcounts and
// adds (a GPU's lanes' width; a lane counts at most 32 a step and a
// work-item takes at most a batch's patterns over GROUP steps, well
// within 2^27), with 64 a 64-bit word per two lanes (a CPU's scalar
// popcount is 64 bits wide); total sums them into 64 bits once a bucket.
#if WORDS == 1
typedef uint vec;
typedef uint cvec;
#define BITS(p) popcount(p)
inline ulong total(uint c) { return c; }
#elif POPCOUNT == 32
#if WORDS == 2
typedef uint2 vec;
inline ulong total(uint2 c) { return (ulong)c.s0 + c.s1; }
#elif WORDS == 4
typedef uint4 vec;
inline ulong total(uint4 c) { ulong2 r = convert_ulong2(c.lo) + convert_ulong2(c.hi); return r.s0 + r.s1; }
#elif WORDS == 8
typedef uint8 vec;
inline ulong total(uint8 c) { ulong4 q = convert_ulong4(c.lo) + convert_ulong4(c.hi); ulong2 r = q.lo + q.hi; return r.s0 + r.s1; }
#elif WORDS == 16
typedef uint16 vec;
inline ulong total(uint16 c) { ulong8 w = convert_ulong8(c.lo) + convert_ulong8(c.hi); ulong4 q = w.lo + w.hi; ulong2 r = q.lo + q.hi; return r.s0 + r.s1; }
#else
#error "BLOCK must be 32, 64, 128, 256 or 512"
#endif
typedef vec cvec;
#define BITS(p) popcount(p)
#elif WORDS == 2
typedef uint2 vec;
typedef ulong cvec;
#define BITS(p) popcount(as_ulong(p))
inline ulong total(ulong c) { return c; }
#elif WORDS == 4
typedef uint4 vec;
typedef ulong2 cvec;
#define BITS(p) popcount(as_ulong2(p))
inline ulong total(ulong2 c) { return c.s0 + c.s1; }
#elif WORDS == 8
typedef uint8 vec;
typedef ulong4 cvec;
#define BITS(p) popcount(as_ulong4(p))
inline ulong total(ulong4 c) { ulong2 r = c.lo + c.hi; return r.s0 + r.s1; }
#elif WORDS == 16
typedef uint16 vec;
typedef ulong8 cvec;
#define BITS(p) popcount(as_ulong8(p))
inline ulong total(ulong8 c) { ulong4 q = c.lo + c.hi; ulong2 r = q.lo + q.hi; return r.s0 + r.s1; }
#else
#error "BLOCK must be 32, 64, 128, 256 or 512"
#endif

// The table's layout. Entry e is WORDS words. Stored as vectors, an
// entry is one load (a CPU's SIMD register); entries 32 bytes apart (at
// BLOCK 256) fall on the same few of a GPU's 32 shared-memory banks, so
// the lanes of a warp that look up random entries conflict. Planar
// (PLANAR 1), word w of entry e is word w·ENTRIES + e of the table: the
// lanes' loads of one word are 4 bytes each, spread over every bank, and
// an entry is WORDS of them.
#define ENTRIES (CHUNKS * CHUNKVALS)
#if PLANAR && WORDS > 1
#define TW(t, e, w) (((__local uint *)(t))[(w) * ENTRIES + (e)])
#if WORDS == 2
#define TLOAD(t, e) ((vec)(TW(t, e, 0), TW(t, e, 1)))
#elif WORDS == 4
#define TLOAD(t, e) ((vec)(TW(t, e, 0), TW(t, e, 1), TW(t, e, 2), TW(t, e, 3)))
#elif WORDS == 8
#define TLOAD(t, e) ((vec)(TW(t, e, 0), TW(t, e, 1), TW(t, e, 2), TW(t, e, 3), TW(t, e, 4), TW(t, e, 5), TW(t, e, 6), TW(t, e, 7)))
#else
#define TLOAD(t, e)                                                                                                            \
	((vec)(TW(t, e, 0), TW(t, e, 1), TW(t, e, 2), TW(t, e, 3), TW(t, e, 4), TW(t, e, 5), TW(t, e, 6), TW(t, e, 7), TW(t, e, 8), \
	       TW(t, e, 9), TW(t, e, 10), TW(t, e, 11), TW(t, e, 12), TW(t, e, 13), TW(t, e, 14), TW(t, e, 15)))
#endif
inline void tstore(__local vec *t, uint e, vec v) {
	const uint *w = (const uint *)&v;
#pragma unroll
	for (uint i = 0; i < WORDS; i++) {
		TW(t, e, i) = w[i];
	}
}
#define TSTORE(t, e, v) tstore(t, e, v)
#else
#define TLOAD(t, e) ((t)[e])
#define TSTORE(t, e, v) ((t)[e] = (v))
#endif

// longWeight is a pair of buckets' weight by their long-diagonal queens
// (key bits 1 and 5): 0 when both sides hold one, 2 when one side holds
// both and the other none, else 1 (engine.longWeight).
inline uint longWeight(uint a, uint b) {
	a &= 0x22u;
	b &= 0x22u;
	if (a != 0 && b != 0) {
		return 0;
	}
	return (a | b) == 0x22u ? 2 : 1;
}

// key is pattern x's bucket: its four main cut bits from m0 and four anti
// cut bits from a0 (engine.keyAt), within the cut.
inline uint key(ulong x, uint m0, uint a0, uint cut) {
	return ((uint)(x >> m0) & 15u | ((uint)(x >> a0) & 15u) << 4) & cut;
}

// sub is pattern x's sub-bucket, split by shift (0, or up to SPLITBITS)
// extra bits: its key within the cut, <<shift | the shift lowest extra
// bits, which are, from the lowest, the diagonals just below and above
// the four main cut bits, then those of the anti ones (engine.subBucket
// of engine.fineAt; m0 ≥ 1 where shift is not 0).
inline uint sub(ulong x, uint m0, uint a0, uint cut, uint shift) {
	const uint k = key(x, m0, a0, cut);
	if (shift == 0) {
		return k;
	}
	const uint lo = (uint)(x >> (m0 - 1)) & 127u, hi = (uint)(x >> (a0 - 1)) & 127u;
	const uint extra = (lo & 1u) | (lo >> 4 & 2u) | (hi << 2 & 4u) | (hi >> 2 & 8u);
	return k << shift | (extra & ((1u << shift) - 1));
}

// squeeze takes the cut's bits out of x: the run [lo2, hi2), then [lo1,
// hi1) (engine.squeeze.apply).
inline ulong squeeze(ulong x, uint q) {
	const uint lo1 = q & 255u, hi1 = (q >> 8) & 255u, lo2 = (q >> 16) & 255u, hi2 = q >> 24;
	x = (x & ((1UL << lo2) - 1)) | (x >> hi2) << lo2;
	return (x & ((1UL << lo1) - 1)) | (x >> hi1) << lo1;
}


// list: a work-group takes one listing (a range of north placements and
// the range of south placements with the other columns of the half);
// each work-item joins its north placements, one at a time, with every
// south placement that shares no diagonal with it or with the middle
// queens (engine.joinFrame.joinSouthGo), takes a run of places in the
// slot with one atomic add, writes the half-boards' patterns there and
// counts them by sub-bucket (sub, no cut yet) in local memory; the
// counts are added to the slot's at the end. listed: a slot's patterns,
// then their counts by sub-bucket (1 + 256<<shift words). A listing:
// first north placement, how many, first south placement, how many,
// slot. A slot (SLOTWORDS words): first place in pats | room<<32; frames:
// north b1 | b2<<8 | south b1<<16 | b2<<24 | window lo<<32 | width<<40 |
// m0<<48 | a0<<56; ban1; ban2; first word in listed | shift<<32.
__kernel __attribute__((reqd_work_group_size(LISTGROUP, 1, 1)))
void list(__global const ulong *lists, __global const uint *listings, __global const ulong *slots, __global ulong *pats,
          __global uint *listed) {
	__local uint hist[256 << SPLITBITS];
	const uint lid = get_local_id(0);
	__global const uint *job = listings + LISTINGWORDS * get_group_id(0);
	const uint nFirst = job[0], nCount = job[1], sFirst = job[2], sCount = job[3], slot = job[4];
	__global const ulong *sl = slots + SLOTWORDS * slot;
	const uint base = (uint)sl[0];
	const ulong fr = sl[1], ban1 = sl[2], ban2 = sl[3];
	const uint nb1 = fr & 255, nb2 = (fr >> 8) & 255, sb1 = (fr >> 16) & 255, sb2 = (fr >> 24) & 255;
	const uint lo = (fr >> 32) & 255, width = (fr >> 40) & 255, m0 = (fr >> 48) & 255, a0 = (fr >> 56) & 255;
	const ulong mask = (1UL << width) - 1, low = 0xffffffffUL;
	__global uint *out = listed + (uint)sl[4];
	const uint shift = (uint)(sl[4] >> 32), subs = 256u << shift;
	for (uint k = lid; k < subs; k += LISTGROUP) {
		hist[k] = 0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint i = lid; i < nCount; i += LISTGROUP) {
		const ulong a = lists[nFirst + i];
		const ulong a1 = (a & low) << nb1, a2 = (a >> 32) << nb2;
		if (((a1 & ban1) | (a2 & ban2)) != 0) {
			continue; // attacks a middle queen
		}
		const ulong apat = ((a1 >> lo) & mask) | (((a2 >> lo) & mask) << width);
		const ulong as = (((a1 | ban1) >> sb1) & low) | (((a2 | ban2) >> sb2) << 32);
		uint c = 0;
		for (uint j = 0; j < sCount; j++) {
			c += (as & lists[sFirst + j]) == 0;
		}
		if (c == 0) {
			continue;
		}
		uint at = base + atomic_add(out, c);
		for (uint j = 0; j < sCount; j++) {
			const ulong b = lists[sFirst + j];
			if ((as & b) == 0) {
				const ulong b1 = (b & low) << sb1, b2 = (b >> 32) << sb2;
				const ulong p = apat | ((b1 >> lo) & mask) | (((b2 >> lo) & mask) << width);
				pats[at++] = p;
				atomic_inc(&hist[sub(p, m0, a0, 255u, shift)]);
			}
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = lid; k < subs; k += LISTGROUP) {
		if (hist[k] != 0) {
			atomic_add(&out[1 + k], hist[k]);
		}
	}
}

__kernel __attribute__((reqd_work_group_size(SORTGROUP, 1, 1)))
void sort(__global const ulong *pats, __global ulong *sorted, __global const uint *parts, __global const uint4 *sorts,
          __global uint *next) {
	// A sub-bucket's count, then (once the job's places are taken) the
	// first of its places.
	__local uint count[256 << SPLITBITS];
	const uint lid = get_local_id(0);
	const uint4 job = sorts[get_group_id(0)];
	__global const uint *part = parts + PARTWORDS * job.x;
	const uint cut = part[3] & 255u, shift = (part[3] >> 24) & 15u, q = part[4], m0 = part[5] & 255u, a0 = (part[5] >> 8) & 255u;
	const uint subs = 256u << shift;
	__global uint *cur = next + (job.y ? part[6] : part[2]);
	for (uint k = lid; k < subs; k += SORTGROUP) {
		count[k] = 0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	uint keys[SORTPER], at[SORTPER];
	for (uint t = 0; t < SORTPER; t++) {
		const uint i = lid + t * SORTGROUP;
		if (i < job.w) {
			keys[t] = sub(pats[job.z + i], m0, a0, cut, shift);
			at[t] = atomic_inc(&count[keys[t]]);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint k = lid; k < subs; k += SORTGROUP) {
		if (count[k] != 0) {
			count[k] = atomic_add(&cur[k], count[k]);
		}
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint t = 0; t < SORTPER; t++) {
		const uint i = lid + t * SORTGROUP;
		if (i < job.w) {
			sorted[count[keys[t]] + at[t]] = squeeze(pats[job.z + i], q);
		}
	}
}

// bits counts the patterns of the block whose table is table that share
// no bit with item x, of chunks chunks: one lookup a chunk, the chunks of
// the widest cut's patterns (the usual part) unrolled, then those of a
// part with more.
inline cvec bits(__local vec *table, ulong x, uint chunks) {
	vec acc = TLOAD(table, x & (CHUNKVALS - 1));
#pragma unroll
	for (uint k = 1; k < SQUEEZED; k++) {
		acc &= TLOAD(table, k * CHUNKVALS + (uint)((x >> (CHUNKBITS * k)) & (CHUNKVALS - 1)));
	}
	for (uint k = SQUEEZED; k < chunks; k++) {
		acc &= TLOAD(table, k * CHUNKVALS + (uint)((x >> (CHUNKBITS * k)) & (CHUNKVALS - 1)));
	}
	return BITS(acc);
}

// A job's items are the concatenation of the sub-buckets it matches: for
// each bucket u ⊆ rest (rest, then each subset below it in turn, as
// engine's match walks them) of non-zero weight, its sub-buckets e in
// order, less those holding an extra bit of held (every pattern of the
// block holds them: none of its pairs with such an item is disjoint). A cursor is where a
// work-item stands in it: sub-bucket e of bucket u, of weight wt, which
// holds the items from position v0 (up to v1) of the concatenation,
// from p0 in sorted; more is clear past the last.
typedef struct {
	uint u, e, wt, p0, v0, v1;
	bool more;
} cursor;

// step moves c to the next non-empty sub-bucket of the job's
// concatenation (bounds: its I side's sub-bucket bounds), or clears
// c->more past the last.
inline void step(cursor *c, __global const uint *bounds, uint rest, uint v, uint long_, uint shift, uint held) {
	const uint subs = 1u << shift;
	for (;;) {
		c->e++;
		while (c->e < subs && (c->e & held) != 0) {
			c->e++;
		}
		if (c->e >= subs || c->wt == 0) {
			if (c->u == 0) {
				c->more = false;
				return;
			}
			c->u = (c->u - 1) & rest;
			c->wt = long_ ? longWeight(v, c->u) : 1;
			c->e = ~0u;
			continue;
		}
		const uint k = c->u << shift | c->e;
		const uint b0 = bounds[k], b1 = bounds[k + 1];
		c->v0 = c->v1;
		c->v1 += b1 - b0;
		c->p0 = b0;
		if (b1 > b0) {
			return;
		}
	}
}

// locate moves c forward to position i of the job's concatenation (c
// never moves back: a work-item's positions only grow) and returns its
// place in sorted, or ~0u past the concatenation's end.
inline uint locate(cursor *c, uint i, __global const uint *bounds, uint rest, uint v, uint long_, uint shift, uint held) {
	if (i < c->v1) {
		return c->p0 + (i - c->v0);
	}
	while (c->more && i >= c->v1) {
		step(c, bounds, rest, v, long_, shift, held);
	}
	return c->more ? c->p0 + (i - c->v0) : ~0u;
}

__kernel __attribute__((reqd_work_group_size(GROUP, 1, 1)))
void join(__global const ulong *sorted, __global const uint *parts, __global const uint *bounds, __global const uint8 *jobs,
          __global ulong *out) {
	// 32×32 bit matrices, [half h][row i][word w]: row i of matrix (h, w)
	// is words[(32h + i)·WORDS + w], so that once transposed, bit b's row
	// of every word is one vector, rows[b].
	__local vec rows[64];
	__local uint *const words = (__local uint *)rows;
	__local vec valid; // bit j of word w: pattern 32w+j is in the block
	__local vec table[CHUNKS * CHUNKVALS]; // planar (PLANAR): TLOAD, TSTORE
	__local ulong sums[GROUP];

	const uint lid = get_local_id(0);
	const uint8 job = jobs[get_group_id(0)];
	const uint first = job.s0, len = job.s1, v = job.s3;
	__global const uint *part = parts + PARTWORDS * job.s2;
	const uint cut = part[3] & 255u, long_ = (part[3] >> 8) & 1u;
	// The part's chunks of 6 bits (the host's), as chunks of CHUNKBITS.
	const uint chunks = min((((part[3] >> 16) & 255u) * 6 + CHUNKBITS - 1) / CHUNKBITS, (uint)CHUNKS);
	// The table's rows: the part's chunks, and at least the SQUEEZED the
	// matching loop reads (a row past a pattern's bits holds every valid
	// pattern at value 0, an item's value there).
	const uint built = max(chunks, (uint)SQUEEZED);
	__global const uint *bound = bounds + part[6];

	// Row i of matrix (h, w) is the half h of pattern 32w+i (none past
	// the block's).
	for (uint i = lid; i < BLOCK; i += GROUP) {
		const ulong p = i < len ? sorted[first + i] : 0;
		const uint at = (i % 32) * WORDS + i / 32;
		words[at] = (uint)p;
		words[32 * WORDS + at] = (uint)(p >> 32);
	}
	for (uint w = lid; w < WORDS; w += GROUP) {
		((__local uint *)&valid)[w] = len >= 32 * w + 32 ? ~0u : (len > 32 * w ? (1u << (len - 32 * w)) - 1 : 0u);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	// Transpose each matrix: five rounds swap ever smaller blocks (16×16,
	// ..., 1×1) across its diagonal (engine.transpose64's, 32 bits wide).
	// Afterwards bit i of row b of matrix (h, w) is bit 32h+b of pattern
	// 32w+i.
	// A work-item swaps one pair of rows of a half's matrices, all WORDS
	// of them at once.
	uint m = 0x0000ffffu;
	for (uint j = 16; j != 0; j >>= 1, m ^= m << j) {
		if (lid < 32) {
			// Pair r of half h: rows k and k+j, bit j of k clear.
			const uint h = lid / 16, r = lid % 16;
			const uint k = h * 32 + (r / j) * (2 * j) + r % j;
			const vec t = ((rows[k] >> j) ^ rows[k + j]) & m;
			rows[k] ^= t << j;
			rows[k + j] ^= t;
		}
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	// The table: the valid patterns, less those holding a bit of the
	// value. A work-item fills the 8 entries of a chunk that share a high
	// part (the value's bits from 3 on), a vector of words at a time: the
	// high part's patterns, then each entry from another by one AND
	// (engine.buildBlockGo's way), few vectors live at once (a GPU's
	// registers).
	for (uint e = lid; e < built * (CHUNKVALS / 8); e += GROUP) {
		const uint k = e / (CHUNKVALS / 8), h = e % (CHUNKVALS / 8), bit = CHUNKBITS * k;
		vec hi = valid;
		for (uint b = 0; b < CHUNKBITS - 3; b++) {
			if ((h >> b & 1) != 0 && bit + 3 + b < 64) {
				hi &= ~rows[bit + 3 + b];
			}
		}
		const vec n0 = bit < 64 ? ~rows[bit] : (vec)(~0u);
		const vec n1 = bit + 1 < 64 ? ~rows[bit + 1] : (vec)(~0u);
		const vec n2 = bit + 2 < 64 ? ~rows[bit + 2] : (vec)(~0u);
		const uint t = k * CHUNKVALS + h * 8;
#if PLANAR && WORDS > 1
		// A warp's lanes fill entries 8 apart: stored in the same order,
		// 8 of them would fall on each bank. Lane i stores entry (j + i/4)
		// % 8 at step j instead, so that the 32 lanes' words fall on 32
		// banks at every step (an entry is hi and, by its value's three
		// low bits, n0, n1, n2).
		const uint r = (lid / 4) % 8;
		for (uint j = 0; j < 8; j++) {
			const uint x = (j + r) % 8;
			const vec all = (vec)(~0u);
			TSTORE(table, t + x, hi & ((x & 1) ? n0 : all) & ((x & 2) ? n1 : all) & ((x & 4) ? n2 : all));
		}
#else
		const vec e2 = hi & n1, e4 = hi & n2, e6 = e4 & n1;
		TSTORE(table, t, hi);
		TSTORE(table, t + 1, hi & n0);
		TSTORE(table, t + 2, e2);
		TSTORE(table, t + 3, e2 & n0);
		TSTORE(table, t + 4, e4);
		TSTORE(table, t + 5, e4 & n0);
		TSTORE(table, t + 6, e6);
		TSTORE(table, t + 7, e6 & n0);
#endif
	}
	barrier(CLK_LOCAL_MEM_FENCE);

	const uint rest = cut & ~v;
#if CUT
	// The job's range of its block's items, positions in the
	// concatenation of the sub-buckets it matches (a large block's items
	// are cut among several jobs), the extra bits all its patterns hold
	// and the part's split.
	const uint from = job.s4, to = job.s5, held = job.s6, shift = (part[3] >> 24) & 15u;
	// Each work-item takes positions from + lid, then GROUP on, of the
	// job's concatenation, ITEMS a step, so that no sub-bucket ends in a
	// partial step (a GPU's warp idles in none but the job's last); the
	// next step's items are loaded before this step's are matched, so
	// that their global-memory latency overlaps the table lookups. An
	// item's count is shifted by wt - 1 (a bucket's weight is 1 or 2; ws 2
	// marks no item).
	cursor c = {rest, ~0u, long_ ? longWeight(v, rest) : 1, 0, 0, 0, true};
	cvec cnt = 0;
	ulong xs[ITEMS];
	uint ws[ITEMS];
	uint base = from + lid;
#pragma unroll
	for (uint it = 0; it < ITEMS; it++) {
		const uint i = base + it * GROUP;
		const uint at = i < to ? locate(&c, i, bound, rest, v, long_, shift, held) : ~0u;
		xs[it] = at != ~0u ? sorted[at] : 0;
		ws[it] = at != ~0u ? c.wt - 1 : 2;
	}
	for (; base < to; base += GROUP * ITEMS) {
		ulong next[ITEMS];
		uint nw[ITEMS];
#pragma unroll
		for (uint it = 0; it < ITEMS; it++) {
			const uint i = base + (ITEMS + it) * GROUP;
			const uint at = i < to ? locate(&c, i, bound, rest, v, long_, shift, held) : ~0u;
			next[it] = at != ~0u ? sorted[at] : 0;
			nw[it] = at != ~0u ? c.wt - 1 : 2;
		}
#pragma unroll
		for (uint it = 0; it < ITEMS; it++) {
			if (ws[it] != 2) {
				cnt += bits(table, xs[it], chunks) << ws[it];
			}
		}
#pragma unroll
		for (uint it = 0; it < ITEMS; it++) {
			xs[it] = next[it];
			ws[it] = nw[it];
		}
	}
	ulong s = total(cnt);
#else
	// Jobs whole and buckets not split (a device on the CPU, where a
	// step's lanes are a work-item's vectors, not a warp's, and a short
	// sub-bucket's loop costs each work-item its start): each bucket a
	// plain loop, ITEMS a step, the next step's items loaded ahead.
	ulong s = 0;
	for (uint u = rest;; u = (u - 1) & rest) {
		const uint wt = long_ ? longWeight(v, u) : 1;
		if (wt != 0) {
			const uint lo = bound[u], hi = bound[u + 1];
			cvec cnt = 0;
			uint base = lo + lid;
			ulong xs[ITEMS];
#pragma unroll
			for (uint it = 0; it < ITEMS; it++) {
				const uint i = base + it * GROUP;
				xs[it] = i < hi ? sorted[i] : 0;
			}
			for (; base < hi; base += GROUP * ITEMS) {
				ulong next[ITEMS];
#pragma unroll
				for (uint it = 0; it < ITEMS; it++) {
					const uint i = base + (ITEMS + it) * GROUP;
					next[it] = i < hi ? sorted[i] : 0;
				}
#pragma unroll
				for (uint it = 0; it < ITEMS; it++) {
					if (base + it * GROUP < hi) {
						cnt += bits(table, xs[it], chunks);
					}
				}
#pragma unroll
				for (uint it = 0; it < ITEMS; it++) {
					xs[it] = next[it];
				}
			}
			s += wt * total(cnt);
		}
		if (u == 0) {
			break;
		}
	}
#endif

	// The work-group's sum in two steps: 32 work-items add a column of
	// sums each (GROUP is a multiple of 32), the first adds theirs.
	sums[lid] = s;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid < 32) {
		for (uint k = lid + 32; k < GROUP; k += 32) {
			s += sums[k];
		}
		sums[lid] = s;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	if (lid == 0) {
		for (uint k = 1; k < 32; k++) {
			s += sums[k];
		}
		out[get_group_id(0)] = s;
	}
}
