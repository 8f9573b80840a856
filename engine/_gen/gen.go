// Command gen writes the engine's amd64 kernels with avo: with -set match
// the join method's matching kernels (engine/match_amd64.s and its Go
// declarations), with -set walk the backtracking kernels
// (engine/kernel_amd64.s, see walk.go). Run it through go generate in
// engine/; CI checks that its output is unchanged.
//
// A table block (engine.blockTable) holds up to 512 patterns, 8 groups of
// 64: for each chunk k of 6 pattern bits (bits 6k..6k+5) and each of the 64
// values v of that chunk, an entry of 8 words, word g with bit j set when
// pattern 64g+j shares no bit with v there. A matching kernel counts, for
// each item of a slice, the block's patterns the item is disjoint from: it
// ANDs the entries the item's chunks select and counts the bits. There is
// one function per number of chunks (1 to 11: patterns of up to 66 bits)
// and instruction set: AVX-512 (one register per entry, VPOPCNTQ) and AVX2
// (two registers per entry, bits counted by nibble lookups). The block is
// built with AVX-512 by transposing the patterns' bits (transposeAVX512)
// and combining the rows of each chunk's bits (buildRowAVX512).
// engine.matchBlockGo and engine.buildBlockGo are their portable twins.
//
// joinNorthsAVX512 lists half-boards eight at a time: north placements one
// by one against eight south ones, the compatible pairs' patterns
// compressed into the output (engine.joinNorthsGo is its twin).
package main

import (
	"flag"
	"fmt"
	"math/bits"
	"os"

	"github.com/mmcloughlin/avo/gotypes"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Layout of engine.blockTable.
const (
	chunkBits  = 6
	entries    = 1 << chunkBits
	entryBytes = 8 * 8 // blockGroups words
	rowBytes   = entries * entryBytes
	maxChunks  = 11
)

const joinArgsType = "*[14]uint64"

const signature = "func(t *[11][64][8]uint64, items []uint64) uint64"

func main() {
	set := flag.String("set", "match", "kernels to write: match (the join's) or walk (the backtracking ones)")
	flag.Parse()
	ConstraintExpr("amd64,!purego")
	switch *set {
	case "match":
		matchSet()
	case "walk":
		walkSet()
	default:
		fmt.Fprintf(os.Stderr, "gen: unknown -set %q (accepted: match, walk)\n", *set)
		os.Exit(2)
	}
	Generate()
}

// matchSet writes the join's kernels.
func matchSet() {
	for c := 1; c <= maxChunks; c++ {
		avx512(c)
	}
	nibbles := GLOBL("popcountNibbles", RODATA|NOPTR)
	for i := range 32 {
		DATA(i, U8(bits.OnesCount8(uint8(i%16))))
	}
	lowNibbles := GLOBL("lowNibbles", RODATA|NOPTR)
	for i := range 32 {
		DATA(i, U8(0x0f))
	}
	for c := 1; c <= maxChunks; c++ {
		avx2(c, nibbles, lowNibbles)
	}
	transpose512()
	buildRow512()
	transpose256()
	buildRow256()
	joinNorths512()
}

// entry returns, in a fresh register, the offset within its row of the
// entry chunk k of w selects: chunk k's value times entryBytes.
func entry(w GPVirtual, k int) GPVirtual {
	x := GP64()
	MOVQ(w, x)
	switch s := chunkBits*k - 6; { // entryBytes is 1<<6
	case s < 0:
		SHLQ(U8(-s), x)
	case s > 0:
		SHRQ(U8(s), x)
	}
	ANDQ(U32((entries-1)*entryBytes), x)
	return x
}

func avx512(chunks int) {
	TEXT(fmt.Sprintf("matchBlockAVX512x%d", chunks), NOSPLIT, signature)
	Pragma("noescape")
	Doc(fmt.Sprintf("matchBlockAVX512x%d counts the disjoint pairs of items (patterns of %d chunks) and the patterns of the block t, with AVX-512.", chunks, chunks))
	t := Load(Param("t"), GP64())
	p := Load(Param("items").Base(), GP64())
	n := Load(Param("items").Len(), GP64())
	acc := ZMM()
	VPXORQ(acc, acc, acc)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("loop")
	w := GP64()
	MOVQ(Mem{Base: p}, w)
	z := ZMM()
	for k := range chunks {
		m := Mem{Base: t, Index: entry(w, k), Scale: 1, Disp: k * rowBytes}
		if k == 0 {
			VMOVDQU64(m, z)
		} else {
			VPANDQ(m, z, z)
		}
	}
	VPOPCNTQ(z, z)
	VPADDQ(z, acc, acc)
	ADDQ(U8(8), p)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	y := YMM()
	VEXTRACTI64X4(U8(1), acc, y)
	VPADDQ(y, acc.AsY(), y)
	sum(y)
}

// sum stores the sum of y's four words as the result.
func sum(y VecVirtual) {
	x, x2 := XMM(), XMM()
	VEXTRACTI128(U8(1), y, x)
	VPADDQ(x, y.AsX(), x)
	VPSHUFD(U8(0x4e), x, x2)
	VPADDQ(x2, x, x)
	r := GP64()
	VMOVQ(x, r)
	VZEROUPPER()
	Store(r, ReturnIndex(0))
	RET()
}

func avx2(chunks int, nibbles, lowNibbles Mem) {
	TEXT(fmt.Sprintf("matchBlockAVX2x%d", chunks), NOSPLIT, signature)
	Pragma("noescape")
	Doc(fmt.Sprintf("matchBlockAVX2x%d counts the disjoint pairs of items (patterns of %d chunks) and the patterns of the block t, with AVX2.", chunks, chunks))
	t := Load(Param("t"), GP64())
	p := Load(Param("items").Base(), GP64())
	n := Load(Param("items").Len(), GP64())
	lut, low, zero, acc := YMM(), YMM(), YMM(), YMM()
	VMOVDQU(nibbles, lut)
	VMOVDQU(lowNibbles, low)
	VPXOR(zero, zero, zero)
	VPXOR(acc, acc, acc)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("loop")
	w := GP64()
	MOVQ(Mem{Base: p}, w)
	a, b := YMM(), YMM()
	for k := range chunks {
		x := entry(w, k)
		m := Mem{Base: t, Index: x, Scale: 1, Disp: k * rowBytes}
		m2 := Mem{Base: t, Index: x, Scale: 1, Disp: k*rowBytes + 32}
		if k == 0 {
			VMOVDQU(m, a)
			VMOVDQU(m2, b)
		} else {
			VPAND(m, a, a)
			VPAND(m2, b, b)
		}
	}
	// Bits counted per byte by looking up each nibble, both registers'
	// counts added (at most 16 a byte), then summed per word.
	c := YMM()
	for _, v := range []VecVirtual{a, b} {
		lo, hi := YMM(), YMM()
		VPAND(low, v, lo)
		VPSRLQ(U8(4), v, hi)
		VPAND(low, hi, hi)
		VPSHUFB(lo, lut, lo)
		VPSHUFB(hi, lut, hi)
		if v == a {
			VPADDB(lo, hi, c)
		} else {
			VPADDB(lo, c, c)
			VPADDB(hi, c, c)
		}
	}
	VPSADBW(zero, c, c)
	VPADDQ(c, acc, acc)
	ADDQ(U8(8), p)
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	sum(acc)
}

// masks are the transposes' swap masks, one word a round (transpose512
// defines them).
var masks Mem

// transpose512 transposes the 64×64 bit matrices of 8 groups at once:
// lane g of a[b] is group g's word b. Six rounds swap ever smaller blocks
// across the diagonal (engine.transpose64 does one group the same way).
func transpose512() {
	TEXT("transposeAVX512", NOSPLIT, "func(a *[64][8]uint64)")
	Pragma("noescape")
	Doc("transposeAVX512 transposes the 64×64 bit matrix of each lane of a: afterwards bit j of lane g of a[b] is what bit b of lane g of a[j] was.")
	a := Load(Param("a"), GP64())
	masks = GLOBL("transposeMasks", RODATA|NOPTR)
	for i, m := range []uint64{0x00000000ffffffff, 0x0000ffff0000ffff, 0x00ff00ff00ff00ff, 0x0f0f0f0f0f0f0f0f, 0x3333333333333333, 0x5555555555555555} {
		DATA(8*i, U64(m))
	}
	for r, j := 0, 32; j != 0; r, j = r+1, j>>1 {
		m := ZMM()
		VPBROADCASTQ(masks.Offset(8*r), m)
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			x, y, t := ZMM(), ZMM(), ZMM()
			VMOVDQU64(Mem{Base: a, Disp: 64 * k}, x)
			VMOVDQU64(Mem{Base: a, Disp: 64 * (k + j)}, y)
			VPSRLQ(U8(j), x, t)
			VPXORQ(y, t, t)
			VPANDQ(m, t, t)
			VPXORQ(t, y, y)
			VPSLLQ(U8(j), t, t)
			VPXORQ(t, x, x)
			VMOVDQU64(x, Mem{Base: a, Disp: 64 * k})
			VMOVDQU64(y, Mem{Base: a, Disp: 64 * (k + j)})
		}
	}
	VZEROUPPER()
	RET()
}

// buildRow512 fills one chunk's 64 entries of a table block from the rows
// of that chunk's 6 bits (lane g: the patterns of group g that lack the
// bit): entry v is the AND of the valid lanes and of the rows of v's bits,
// from the ANDs of its low 3 bits' rows and of its high 3 bits', each kept
// in registers.
func buildRow512() {
	TEXT("buildRowAVX512", NOSPLIT, "func(row *[64][8]uint64, lacks *[6][8]uint64, valid *[8]uint64)")
	Pragma("noescape")
	Doc("buildRowAVX512 sets row[v] to the AND of valid and of lacks[i] for each bit i of v.")
	row := Load(Param("row"), GP64())
	lacks := Load(Param("lacks"), GP64())
	valid := Load(Param("valid"), GP64())
	bit := func(i int) Mem { return Mem{Base: lacks, Disp: 64 * i} }
	var lo, hi [8]VecVirtual
	lo[0] = ZMM()
	VMOVDQU64(Mem{Base: valid}, lo[0])
	for v := 1; v < 8; v++ {
		low := v & -v
		lo[v], hi[v] = ZMM(), ZMM()
		VPANDQ(bit(bits.TrailingZeros(uint(low))), lo[v^low], lo[v])
		if v == low {
			VMOVDQU64(bit(3+bits.TrailingZeros(uint(low))), hi[v])
		} else {
			VPANDQ(bit(3+bits.TrailingZeros(uint(low))), hi[v^low], hi[v])
		}
	}
	e := ZMM()
	for vh := range 8 {
		for vl := range 8 {
			dst := Mem{Base: row, Disp: entryBytes * (8*vh + vl)}
			if vh == 0 {
				VMOVDQU64(lo[vl], dst)
				continue
			}
			VPANDQ(lo[vl], hi[vh], e)
			VMOVDQU64(e, dst)
		}
	}
	VZEROUPPER()
	RET()
}

// joinNorths512 writes the patterns of the half-boards of each north
// placement that spares the middle queen (a1&ban1 | a2&ban2 == 0) with
// the south placements that share no diagonal with it (the north one's
// diagonals extended by the middle queen's), eight south placements a
// step: lanes past the end are masked off, compatible lanes' patterns are
// compressed to the front of a register and stored under a mask of their
// count. Placements are packed (engine.frame): a north one is unpacked with
// its frame's shifts nb1, nb2, packed again in the south frame (sb1, sb2)
// to test eight south ones with one AND; a south placement's pattern
// comes from its halves shifted left by sl1, sl2 and right by sr1, sr2.
func joinNorths512() {
	TEXT("joinNorthsAVX512", NOSPLIT, "func(np, sp, out []uint64, a "+joinArgsType+") (written, spared int)")
	Pragma("noescape")
	Doc("joinNorthsAVX512 does what engine.joinNorthsGo does, with AVX-512, and returns how many patterns it wrote and how many north placements spare the middle queen; out has room for len(np)*len(sp) patterns.")
	args := Load(Param("a"), GP64())
	arg := func(name string) Mem { return Mem{Base: args, Disp: 8 * argIndex(name)} }
	zm, zlow := ZMM(), ZMM()
	VPBROADCASTQ(arg("mask"), zm)
	VPBROADCASTQ(arg("low32"), zlow)
	xw, xsl1, xsr1, xsl2, xsr2 := XMM(), XMM(), XMM(), XMM(), XMM()
	VMOVQ(arg("width"), xw)
	VMOVQ(arg("sl1"), xsl1)
	VMOVQ(arg("sr1"), xsr1)
	VMOVQ(arg("sl2"), xsl2)
	VMOVQ(arg("sr2"), xsr2)
	q := Load(Param("np").Base(), GP64())
	nn := Load(Param("np").Len(), GP64())
	o := Load(Param("out").Base(), GP64())
	cnt := GP64()
	XORQ(cnt, cnt)
	spared := addr(ReturnIndex(1))
	MOVQ(U32(0), spared) // counted in memory: no register to spare
	TESTQ(nn, nn)
	JZ(LabelRef("done"))
	Label("north")
	// Unpack the north placement (a1, a2), test it against the middle
	// queen, take its pattern, extend it by the middle queen's diagonals
	// and pack it in the south frame. Arguments are read from memory: few
	// registers are live in the south loop.
	p, a1, a2, t := GP64(), GP64(), GP64(), GP64()
	MOVQ(Mem{Base: q}, p)
	MOVL(p.As32(), a1.As32()) // low half, zero-extended
	MOVQ(arg("nb1"), t)
	SHLXQ(t, a1, a1)
	MOVQ(p, a2)
	SHRQ(U8(32), a2)
	MOVQ(arg("nb2"), t)
	SHLXQ(t, a2, a2)
	MOVQ(a1, t)
	ANDQ(arg("ban1"), t)
	t2 := GP64()
	MOVQ(a2, t2)
	ANDQ(arg("ban2"), t2)
	ORQ(t2, t)
	JNZ(LabelRef("next")) // attacks the middle column's queen
	INCQ(spared)
	pa, pb := GP64(), GP64()
	MOVQ(arg("lo"), t)
	SHRXQ(t, a1, pa)
	SHRXQ(t, a2, pb)
	ANDQ(arg("mask"), pa)
	ANDQ(arg("mask"), pb)
	MOVQ(arg("width"), t)
	SHLXQ(t, pb, pb)
	ORQ(pb, pa)
	zp, za := ZMM(), ZMM()
	VPBROADCASTQ(pa, zp)
	ORQ(arg("ban1"), a1)
	ORQ(arg("ban2"), a2)
	MOVQ(arg("sb1"), t)
	SHRXQ(t, a1, a1)
	ANDQ(arg("low32"), a1) // (avo drops a MOVL of a register to itself)
	MOVQ(arg("sb2"), t)
	SHRXQ(t, a2, a2)
	SHLQ(U8(32), a2)
	ORQ(a2, a1)
	VPBROADCASTQ(a1, za)
	ps := Load(Param("sp").Base(), GP64())
	n := Load(Param("sp").Len(), GP64())
	TESTQ(n, n)
	JZ(LabelRef("next"))
	Label("south")
	// live: the lanes still in sp (all eight but at the end).
	m, t8 := GP64(), GP64()
	MOVQ(U32(8), m)
	CMPQ(n, m)
	CMOVQLT(n, m)
	MOVQ(U32(8), t8)
	SUBQ(m, t8)
	live := GP64()
	MOVQ(U32(0xff), live)
	SHRXQ(t8, live, live)
	kl := K()
	KMOVW(live.As32(), kl)
	z, z1, z2 := ZMM(), ZMM(), ZMM()
	VMOVDQU64_Z(Mem{Base: ps}, kl, z)
	kf := K()
	VPTESTNMQ(z, za, kl, kf)
	VPANDQ(zlow, z, z1)
	VPSLLQ(xsl1, z1, z1)
	VPSRLQ(xsr1, z1, z1)
	VPSRLQ(U8(32), z, z2)
	VPSLLQ(xsl2, z2, z2)
	VPSRLQ(xsr2, z2, z2)
	VPANDQ(zm, z2, z2)
	VPSLLQ(xw, z2, z2)
	VPTERNLOGQ(U8(0xea), z2, zm, z1) // z1 = z1&zm | z2
	VPORQ(zp, z1, z1)
	zc := ZMM()
	VPCOMPRESSQ(z1, kf, zc)
	f := GP64()
	KMOVW(kf, f.As32())
	POPCNTL(f.As32(), f.As32())
	// Store the first f lanes: mask 0xff >> (8-f).
	sh, sm := GP64(), GP64()
	MOVQ(U32(8), sh)
	SUBQ(f, sh)
	MOVQ(U32(0xff), sm)
	SHRXQ(sh, sm, sm)
	ks := K()
	KMOVW(sm.As32(), ks)
	VMOVDQU64(zc, ks, Mem{Base: o, Index: cnt, Scale: 8})
	ADDQ(f, cnt)
	ADDQ(U8(64), ps)
	SUBQ(m, n)
	JNZ(LabelRef("south"))
	Label("next")
	ADDQ(U8(8), q)
	DECQ(nn)
	JNZ(LabelRef("north"))
	Label("done")
	VZEROUPPER()
	Store(cnt, ReturnIndex(0))
	RET()
}

// joinArgsFields is the layout of engine.joinArgs, one word each.
var joinArgsFields = []string{"nb1", "nb2", "sb1", "sb2", "ban1", "ban2", "lo", "width", "mask", "low32", "sl1", "sr1", "sl2", "sr2"}

func argIndex(name string) int {
	for i, f := range joinArgsFields {
		if f == name {
			return i
		}
	}
	panic("no field " + name)
}

// transpose256 is transpose512 with two AVX2 registers a row.
func transpose256() {
	TEXT("transposeAVX2", NOSPLIT, "func(a *[64][8]uint64)")
	Pragma("noescape")
	Doc("transposeAVX2 transposes the 64×64 bit matrix of each lane of a, as transposeAVX512 does, with AVX2.")
	a := Load(Param("a"), GP64())
	for r, j := 0, 32; j != 0; r, j = r+1, j>>1 {
		m := YMM()
		VPBROADCASTQ(masks.Offset(8*r), m)
		for k := 0; k < 64; k = (k + j + 1) &^ j {
			for half := 0; half < 64; half += 32 {
				x, y, t := YMM(), YMM(), YMM()
				VMOVDQU(Mem{Base: a, Disp: 64*k + half}, x)
				VMOVDQU(Mem{Base: a, Disp: 64*(k+j) + half}, y)
				VPSRLQ(U8(j), x, t)
				VPXOR(y, t, t)
				VPAND(m, t, t)
				VPXOR(t, y, y)
				VPSLLQ(U8(j), t, t)
				VPXOR(t, x, x)
				VMOVDQU(x, Mem{Base: a, Disp: 64*k + half})
				VMOVDQU(y, Mem{Base: a, Disp: 64*(k+j) + half})
			}
		}
	}
	VZEROUPPER()
	RET()
}

// buildRow256 is buildRow512 with AVX2, one half of the lanes at a time:
// the low 3 bits' ANDs in registers, the high 3 bits' rows combined for
// each value of the high half.
func buildRow256() {
	TEXT("buildRowAVX2", NOSPLIT, "func(row *[64][8]uint64, lacks *[6][8]uint64, valid *[8]uint64)")
	Pragma("noescape")
	Doc("buildRowAVX2 sets row[v] to the AND of valid and of lacks[i] for each bit i of v, with AVX2.")
	row := Load(Param("row"), GP64())
	lacks := Load(Param("lacks"), GP64())
	valid := Load(Param("valid"), GP64())
	for half := 0; half < 64; half += 32 {
		bit := func(i int) Mem { return Mem{Base: lacks, Disp: 64*i + half} }
		var lo [8]VecVirtual
		lo[0] = YMM()
		VMOVDQU(Mem{Base: valid, Disp: half}, lo[0])
		for v := 1; v < 8; v++ {
			low := v & -v
			lo[v] = YMM()
			VPAND(bit(bits.TrailingZeros(uint(low))), lo[v^low], lo[v])
		}
		var hb [3]VecVirtual
		for i := range hb {
			hb[i] = YMM()
			VMOVDQU(bit(3+i), hb[i])
		}
		h, e := YMM(), YMM()
		for vh := range 8 {
			var hv VecVirtual
			for i := range 3 {
				if vh>>i&1 == 0 {
					continue
				}
				if hv == nil {
					hv = hb[i]
					continue
				}
				VPAND(hb[i], hv, h)
				hv = h
			}
			for vl := range 8 {
				dst := Mem{Base: row, Disp: entryBytes*(8*vh+vl) + half}
				if hv == nil {
					VMOVDQU(lo[vl], dst)
					continue
				}
				VPAND(lo[vl], hv, e)
				VMOVDQU(e, dst)
			}
		}
	}
	VZEROUPPER()
	RET()
}

// addr is the frame address of a parameter or result.
func addr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}
