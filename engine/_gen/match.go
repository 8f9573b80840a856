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
