package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// The half-join: north placements against eight south ones at a time.

// placement that spares the middle queen (a1&ban1 | a2&ban2 == 0) with
// the south placements that share no diagonal with it (the north one's
// diagonals extended by the middle queen's), eight south placements a
// step: lanes past the end are masked off, compatible lanes' patterns are
// compressed to the front of a register and stored under a mask of their
// count. Placements are packed (engine.frame): a north one is unpacked with
// its frame's shifts nb1, nb2, packed again in the south frame (sb1, sb2)
// to test eight south ones with one AND; a south placement's pattern
// comes from its halves shifted left by sl1, sl2 and right by sr1, sr2.
// (One function: the kernel's instructions in the order the assembly
// holds them, one register allocation.)
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
