package main

import (
	"fmt"
	"math/bits"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The matching kernels: one per number of chunks, AVX-512 and AVX2.

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
	for c := 1; c <= maxVary; c++ {
		subsAVX512(c)
	}
	for c := 1; c <= maxVary; c++ {
		subsAVX2(c, nibbles, lowNibbles)
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
	item512(t, p, n, chunks, nil, acc, "loop")
	Label("done")
	sum512(acc)
}

// item512 emits the loop over the n items at p (n > 0): each one's
// entries ANDed (with mask's, if any), the bits counted into acc.
func item512(t, p, n Register, chunks int, mask, acc VecVirtual, loop string) {
	Label(loop)
	w := GP64()
	MOVQ(Mem{Base: p}, w)
	z := ZMM()
	for k := range chunks {
		m := Mem{Base: t, Index: entry(w, k), Scale: 1, Disp: k * rowBytes}
		switch {
		case k > 0:
			VPANDQ(m, z, z)
		case mask != nil:
			VPANDQ(m, mask, z)
		default:
			VMOVDQU64(m, z)
		}
	}
	VPOPCNTQ(z, z)
	VPADDQ(z, acc, acc)
	ADDQ(U8(8), p)
	DECQ(n)
	JNZ(LabelRef(loop))
}

// sum512 stores the sum of acc's eight words as the result.
func sum512(acc VecVirtual) {
	y := YMM()
	VEXTRACTI64X4(U8(1), acc, y)
	VPADDQ(y, acc.AsY(), y)
	sum(y)
}

// subs emits the loop over the sub-buckets of a kernel of items laid out
// with their extra bits apart (engine.buckets.apart): for each sub-bucket
// e of 0..63 that holds none of the bits of and, its items within
// [t0, t1) (bounds[e], bounds[e+1] clipped to them), with the entry of
// chunk `chunks` that e selects loaded once (load) and the items matched
// (items).
func subs(chunks int, load func(t, e Register), items func(t, p, n Register)) {
	t := Load(Param("t"), GP64())
	base := Load(Param("items").Base(), GP64())
	bounds := Load(Param("bounds"), GP64())
	and := Load(Param("and"), GP64())
	t0 := Load(Param("t0"), GP64())
	t1 := Load(Param("t1"), GP64())
	e := GP64()
	XORQ(e, e)
	Label("sub")
	TESTQ(and, e)
	JNZ(LabelRef("next"))
	lo, hi := GP64(), GP64()
	MOVQ(Mem{Base: bounds, Index: e, Scale: 8}, lo)
	CMPQ(lo, t0)
	CMOVQLT(t0, lo)
	MOVQ(Mem{Base: bounds, Index: e, Scale: 8, Disp: 8}, hi)
	CMPQ(hi, t1)
	CMOVQGT(t1, hi)
	SUBQ(lo, hi)
	JLE(LabelRef("next"))
	load(t, e)
	p := GP64()
	LEAQ(Mem{Base: base, Index: lo, Scale: 8}, p)
	items(t, p, hi)
	Label("next")
	INCQ(e)
	CMPQ(e, U8(entries))
	JNE(LabelRef("sub"))
}

// maskAt returns the address of the entry of chunk `chunks` that e
// selects, in a fresh register.
func maskAt(t, e Register, chunks int) Mem {
	x := GP64()
	MOVQ(e, x)
	SHLQ(U8(6), x) // entryBytes is 1<<6
	return Mem{Base: t, Index: x, Scale: 1, Disp: chunks * rowBytes}
}

func subsAVX512(chunks int) {
	TEXT(fmt.Sprintf("matchSubsAVX512x%d", chunks), NOSPLIT, subsSignature)
	Pragma("noescape")
	Doc(fmt.Sprintf("matchSubsAVX512x%d counts the disjoint pairs of the items of [t0, t1) in the sub-buckets (bounded by bounds) holding none of the bits of and, laid out with their extra bits apart as chunk %d, and the patterns of the block t, with AVX-512.", chunks, chunks))
	acc, mask := ZMM(), ZMM()
	VPXORQ(acc, acc, acc)
	subs(chunks, func(t, e Register) {
		VMOVDQU64(maskAt(t, e, chunks), mask)
	}, func(t, p, n Register) {
		item512(t, p, n, chunks, mask, acc, "loop")
	})
	sum512(acc)
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
	item256(t, p, n, chunks, nil, nil, popcount256{lut, low, zero, acc}, "loop")
	Label("done")
	sum(acc)
}

// popcount256 holds what item256 counts bits with: the nibbles' counts,
// the low nibbles' mask, zero, and the accumulator.
type popcount256 struct{ lut, low, zero, acc VecVirtual }

// item256 emits the loop over the n items at p (n > 0): each one's
// entries ANDed (with the mask's halves m1, m2, if any), the bits counted
// into pc.acc.
func item256(t, p, n Register, chunks int, m1, m2 VecVirtual, pc popcount256, loop string) {
	lut, low, zero, acc := pc.lut, pc.low, pc.zero, pc.acc
	Label(loop)
	w := GP64()
	MOVQ(Mem{Base: p}, w)
	a, b := YMM(), YMM()
	for k := range chunks {
		x := entry(w, k)
		m := Mem{Base: t, Index: x, Scale: 1, Disp: k * rowBytes}
		mh := Mem{Base: t, Index: x, Scale: 1, Disp: k*rowBytes + 32}
		switch {
		case k > 0:
			VPAND(m, a, a)
			VPAND(mh, b, b)
		case m1 != nil:
			VPAND(m, m1, a)
			VPAND(mh, m2, b)
		default:
			VMOVDQU(m, a)
			VMOVDQU(mh, b)
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
	JNZ(LabelRef(loop))
}

func subsAVX2(chunks int, nibbles, lowNibbles Mem) {
	TEXT(fmt.Sprintf("matchSubsAVX2x%d", chunks), NOSPLIT, subsSignature)
	Pragma("noescape")
	Doc(fmt.Sprintf("matchSubsAVX2x%d counts the disjoint pairs of the items of [t0, t1) in the sub-buckets (bounded by bounds) holding none of the bits of and, laid out with their extra bits apart as chunk %d, and the patterns of the block t, with AVX2.", chunks, chunks))
	pc := popcount256{YMM(), YMM(), YMM(), YMM()}
	VMOVDQU(nibbles, pc.lut)
	VMOVDQU(lowNibbles, pc.low)
	VPXOR(pc.zero, pc.zero, pc.zero)
	VPXOR(pc.acc, pc.acc, pc.acc)
	m1, m2 := YMM(), YMM()
	subs(chunks, func(t, e Register) {
		m := maskAt(t, e, chunks)
		VMOVDQU(m, m1)
		m.Disp += 32
		VMOVDQU(m, m2)
	}, func(t, p, n Register) {
		item256(t, p, n, chunks, m1, m2, pc, "loop")
	})
	sum(pc.acc)
}
