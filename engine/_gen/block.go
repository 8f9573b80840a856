package main

import (
	"math/bits"

	"github.com/mmcloughlin/avo/gotypes"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// Building table blocks: 64×64 bit transposes and the rows of each
// chunk, with AVX-512 and AVX2.

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
