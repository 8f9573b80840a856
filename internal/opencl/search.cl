// The device kernels of nqueens: one work-item searches one start to the
// end and writes its sums. They are the CPU kernels walkGo (engine/kernel.go)
// and nextGo with classify (engine/classify.go), line for line: the same
// pruning, so the same completions and the same nodes. Masks are inverted
// (a set bit is a taken square) and the diagonals of a level are aligned to
// its row. The boards have at most 32 rows, so the masks are 32 bits wide
// (columns n..31 set in cols), half the work of the CPU's 64-bit words on a
// GPU's 32-bit lanes and the same search: every bit above n is taken in both.
// The program is built for one n (ROWS, the board; STACK, the levels a start
// can have below it), so the stacks take no more private memory than the
// board needs.
//
// A start (backend.SearchBatch), all at row row0: cols, ld, rd, posib; mode: bits 0-1 the mode
// (0 walk, 1 banned count, 2 banned classify), bit 2 flipped, bits 8- the
// index of its bans (64 words each); path: the columns of rows 0..row-1, a
// byte each, one word a start (starts lie above row 8). out: 5 words a start: completions, unique,
// point-symmetric, rot90-symmetric, nodes.

#define FULL (~(uint)0)
#if !defined(ROWS) || !defined(STACK)
#error "ROWS and STACK come from the build options (device.go's kernel)"
#endif

// doomed: the squares of a row whose queen would leave the next row, whose
// free squares are f (not empty), without a free square.
inline uint doomed(uint f) {
	uint upToLow = ((f ^ (f - 1)) << 1) | 1;
	int len = 32 - (int)clz(f);
	uint fromHigh = (uint)(((int)(FULL << (len - 1))) >> 1);
	return upToLow & fromHigh;
}

// classify returns 0 if some image of the board (the queen's column per
// row in p) under the 8 symmetries of the square is smaller, else the
// class: 1 size 8, 2 size 4 (180°), 3 size 2 (90°), 4 size 1.
inline int classify(int n, const uchar *p) {
	uchar q[ROWS];
	for (int r = 0; r < n; r++) {
		q[p[r]] = (uchar)r;
	}
	int m = n - 1;
	int equal = 1;
	bool rot90 = false, rot180 = false;
	for (int t = 0; t < 7; t++) {
		int cmp = 0;
		for (int r = 0; r < n && cmp == 0; r++) {
			int v;
			switch (t) {
			case 0: v = m - p[r]; break;          // left-right mirror
			case 1: v = p[n - 1 - r]; break;      // up-down mirror
			case 2: v = m - p[n - 1 - r]; break;  // rotation by 180°
			case 3: v = q[r]; break;              // transpose
			case 4: v = m - q[n - 1 - r]; break;  // anti-transpose
			case 5: v = m - q[r]; break;          // rotation by 90°
			default: v = q[n - 1 - r]; break;     // rotation by 270°
			}
			int w = p[r];
			if (v < w) {
				cmp = -1;
			} else if (v > w) {
				cmp = 1;
			}
		}
		if (cmp < 0) {
			return 0;
		}
		if (cmp == 0) {
			equal++;
			rot90 = rot90 || t == 5;
			rot180 = rot180 || t == 2;
		}
	}
	if (equal == 8) {
		return 4;
	}
	if (rot90) {
		return 3;
	}
	if (rot180) {
		return 2;
	}
	return 1;
}

// walk is walkGo: the search without bans.
inline void walk(uint c0, uint l0, uint r0, uint posib, __global ulong *out) {
	uint cols[STACK], dl[STACK], dr[STACK], rest[STACK];
	ulong sols = 0, nodes = 0;
	int d = 1;
	cols[1] = c0;
	dl[1] = l0;
	dr[1] = r0;
	rest[1] = FULL;
	while (d > 0) {
		uint c = cols[d], dls = dl[d] << 1, drs = dr[d] >> 1;
		while (posib != FULL) {
			uint bit = ~posib & (posib + 1);
			posib ^= bit;
			nodes++;
			uint nc = c | bit;
			uint ndl = (bit << 1) | dls;
			uint ndr = (bit >> 1) | drs;
			uint la = nc | (ndl << 1) | (ndr >> 1);
			if (la == FULL) {
				continue;
			}
			uint next = nc | ndl | ndr | doomed(~la);
			uint free = ~nc;
			uint free2 = free & (free - 1);
			if ((free2 & (free2 - 1)) == 0) {
				uint k = popcount(~next);
				sols += k;
				nodes += k;
				continue;
			}
			if ((nc | (ndl << 2) | (ndr >> 2)) == FULL) {
				continue;
			}
			rest[d + 1] = posib;
			d += posib != FULL;
			cols[d] = nc;
			dl[d] = ndl;
			dr[d] = ndr;
			c = nc;
			dls = ndl << 1;
			drs = ndr >> 1;
			posib = next;
		}
		posib = rest[d];
		d--;
	}
	out[0] = sols;
	out[4] = nodes;
}

// banned is nextGo with its leaves: the search with bans, each completion
// counted (classify 0) or classified (classify 1, flip: the board is
// searched upside down).
inline void banned(int n, __global const ulong *bans, uint c0, uint l0, uint r0, uint posib, int row0,
                   ulong path, bool classes, bool flip, __global ulong *out) {
	uint ban[ROWS + 2]; // the row's banned squares; none below the board
	for (int r = 0; r < ROWS + 2; r++) {
		ban[r] = r < n ? (uint)bans[r] : 0;
	}
	uint cols[STACK], dls_[STACK], drs_[STACK], rest[STACK];
	int rows[STACK];
	uchar board[ROWS]; // the queen's column in each row
	for (int r = 0; r < row0; r++) {
		board[r] = (uchar)(path >> (8 * r));
	}
	ulong total = 0, unique = 0, point = 0, rot90 = 0, nodes = 0;
	int d = 1;
	cols[1] = c0;
	dls_[1] = l0 << 1;
	drs_[1] = r0 >> 1;
	rows[1] = row0;
	rest[1] = FULL;
	while (d > 0) {
		uint c = cols[d], dls = dls_[d], drs = drs_[d];
		int row = rows[d];
		while (posib != FULL) {
			uint bit = ~posib & (posib + 1);
			posib ^= bit;
			nodes++;
			uint nc = c | bit;
			uint ndl = (bit << 1) | dls;
			uint ndr = (bit >> 1) | drs;
			uint free = ~nc;
			uint free2 = free & (free - 1);
			if (free2 == 0) {
				// A completion: this row's queen and the last row's.
				if (!classes) {
					total++;
					continue;
				}
				board[row] = (uchar)(31 - clz(bit));
				board[row + 1] = (uchar)(31 - clz(free));
				uchar up[ROWS];
				const uchar *p = board;
				if (flip) {
					for (int i = 0; i < n; i++) {
						up[i] = board[n - 1 - i];
					}
					p = up;
				}
				switch (classify(n, p)) {
				case 1: unique++; total += 8; break;
				case 2: unique++; total += 4; point += 4; break;
				case 3: unique++; total += 2; point += 2; rot90 += 2; break;
				case 4: unique++; total++; point++; rot90++; break;
				}
				continue;
			}
			uint la = nc | (ndl << 1) | (ndr >> 1) | ban[row + 2];
			if (la == FULL || ((free2 & (free2 - 1)) != 0 && (nc | (ndl << 2) | (ndr >> 2) | ban[row + 3]) == FULL)) {
				continue;
			}
			board[row] = (uchar)(31 - clz(bit));
			rest[d + 1] = posib;
			d += posib != FULL;
			row++;
			c = nc;
			dls = ndl << 1;
			drs = ndr >> 1;
			cols[d] = c;
			dls_[d] = dls;
			drs_[d] = drs;
			rows[d] = row;
			posib = nc | ndl | ndr | ban[row] | doomed(~la);
		}
		posib = rest[d];
		d--;
	}
	out[0] = total;
	out[1] = unique;
	out[2] = point;
	out[3] = rot90;
	out[4] = nodes;
}

__kernel void search(const int n, const uint count, const int row0, __global const ulong *bans,
                     __global const ulong *cols, __global const ulong *ld, __global const ulong *rd,
                     __global const ulong *posib, __global const uint *mode,
                     __global const ulong *path, __global ulong *out) {
	uint j = get_global_id(0);
	if (j >= count) {
		return;
	}
	__global ulong *o = out + 5 * (size_t)j;
	uint m = mode[j];
	if ((m & 3) == 0) {
		o[1] = 0;
		o[2] = 0;
		o[3] = 0;
		walk((uint)cols[j], (uint)ld[j], (uint)rd[j], (uint)posib[j], o);
		return;
	}
	banned(n, bans + 64 * (size_t)(m >> 8), (uint)cols[j], (uint)ld[j], (uint)rd[j], (uint)posib[j], row0, path[j],
	       (m & 3) == 2, (m & 4) != 0, o);
}
