package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The backtracking kernels (engine/kernel_amd64.s): engine.walkGo and
// engine.nextGo in assembly, node for node the same search with every value
// of the inner loop in a register. They use BMI1 (ANDN, BLSR, BLSMSK),
// BMI2 (SHLX, RORX) and POPCNT.
//
// The right diagonal moves one column right per row with RORX, a rotation:
// a bit leaving column 0 comes back as bit 63 and moves right from there,
// one column per row, while the search goes down. With k rows left such a
// bit stays at or above 64-k, in columns that are taken for good (the
// columns at or past n, set in cols) when the highest free column is
// below 64-k: engine.rotationSafe, which the Go side checks before it
// runs them. Every mask then agrees with a shift's on the free columns.
//
// walkBMI's stack has one level of 4 words per depth
// (columns taken, the two diagonals already shifted for the next row, and
// the untried squares of the level above, "rest").
const (
	levelBytes = 32
	offCols    = 0
	offDL      = 8
	offDR      = 16
	offRest    = 24
)

// Layout of engine.bannedSearch (TestBannedLayout checks it): the levels,
// then the bans and the board, one word per row, then the saved level
// index, untried squares and nodes.
const (
	bLevelShift = 6 // levels of 64 bytes
	bCols       = 0
	bDL         = 8
	bDR         = 16
	bRest       = 24
	bRow        = 32
	bBan        = 66 << bLevelShift
	bBoard      = bBan + 64*8
	bD          = bBoard + 64*8
	bPosib      = bD + 8
	bNodes      = bPosib + 8
)

func walkSet() {
	walkBMI()
	nextBMI()
}

// place is the head of both kernels' loops, at the label try: on to pop
// when the current level has no untried square left, else the queen on
// the lowest one (a node), and the masks with it: the columns (in the
// child's register), both diagonals for the next row.
func place(try, pop string, cur, nxt walkRegs, nodes GPVirtual) (nc, ndl, ndr GPVirtual) {
	align32()
	Label(try)
	CMPQ(cur.posib, I8(-1))
	JEQ(LabelRef(pop))
	bit := candidate(cur.posib)
	INCQ(nodes)
	// The queen's bit is in none of the masks (it was free), so adding
	// is ORing: one LEA each for the columns and the left diagonal.
	nc, ndl, ndr = nxt.c, GP64(), GP64()
	LEAQ(Mem{Base: cur.c, Index: bit, Scale: 1}, nc)
	LEAQ(Mem{Base: cur.dls, Index: bit, Scale: 2}, ndl)
	RORXQ(U8(1), bit, ndr) // a right shift but for bit 0 (see the top)
	ORQ(cur.drs, ndr)
	return nc, ndl, ndr
}

// candidate takes the lowest untried square of posib: it returns the
// queen's bit and marks it tried.
func candidate(posib GPVirtual) GPVirtual {
	t, bit := GP64(), GP64()
	LEAQ(Mem{Base: posib, Disp: 1}, t)
	ANDNQ(t, posib, bit) // bit = ^posib & (posib+1)
	XORQ(bit, posib)
	return bit
}

func walkBMI() {
	TEXT("walkBMI", NOSPLIT, "func(st *[66][4]uint64, cols, ld, rd, posib uint64) (sols, nodes uint64)")
	Pragma("noescape")
	Doc("walkBMI is engine.walkGo in assembly: it counts the completions of a start whose masks are cols, ld and rd (more than one row left) and whose untried squares are posib, using st as its stack.")
	a := walkRegs{posib: GP64(), c: GP64(), dls: GP64(), drs: GP64()}
	b := walkRegs{posib: GP64(), c: GP64(), dls: GP64(), drs: GP64()}
	p := GP64()
	Load(Param("st"), p)
	Load(Param("cols"), a.c)
	Load(Param("ld"), a.dls)
	Load(Param("rd"), a.drs)
	Load(Param("posib"), a.posib)
	SHLQ(U8(1), a.dls)
	SHRQ(U8(1), a.drs)
	ADDQ(U8(levelBytes), p)
	a.store(p)
	nodes := GP64()
	XORQ(nodes, nodes)
	sols := addr(ReturnIndex(0))
	MOVQ(U32(0), sols) // counted in memory: solutions are rare next to nodes
	base := addr(Param("st"))
	// Two copies of the loop with the registers' roles swapped: a push
	// makes the child's values current by jumping to the other copy, and
	// moves nothing.
	walkBody("A", a, b, p, nodes, sols, base)
	walkBody("B", b, a, p, nodes, sols, base)
	Label("walkDone")
	Store(nodes, ReturnIndex(1))
	RET()
}

// walkRegs holds the current level's values: its untried squares (set
// bits: taken or tried), the columns taken and both diagonals shifted for
// the next row.
type walkRegs struct{ posib, c, dls, drs GPVirtual }

func (r walkRegs) store(p GPVirtual) {
	MOVQ(r.c, Mem{Base: p, Disp: offCols})
	MOVQ(r.dls, Mem{Base: p, Disp: offDL})
	MOVQ(r.drs, Mem{Base: p, Disp: offDR})
}

// walkBody is one copy of walkBMI's loop, with cur the current level's
// registers and nxt those a push fills; a push continues in the copy other
// names, a pop in copy A.
func walkBody(name string, cur, nxt walkRegs, p, nodes GPVirtual, sols, base Mem) {
	other := map[string]string{"A": "B", "B": "A"}[name]
	try, pop := "try"+name, "pop"+name
	nc, ndl, ndr := place(try, pop, cur, nxt, nodes)
	// The next row has a free square (bit was not doomed), and row+2
	// exists: no row+2 free square, no completion.
	LEAQ(Mem{Base: ndl, Index: ndl, Scale: 1}, nxt.dls)
	RORXQ(U8(1), ndr, nxt.drs)
	la := GP64()
	MOVQ(nc, la)
	ORQ(nxt.dls, la)
	ORQ(nxt.drs, la)
	CMPQ(la, I8(-1))
	JEQ(LabelRef(try))
	next := nxt.posib
	MOVQ(nc, next)
	ORQ(ndl, next)
	ORQ(ndr, next)
	// Two columns left (nc has every bit but two: the columns at or past
	// n are set): the next two rows are counted here.
	t := GP64()
	POPCNTQ(nc, t)
	CMPQ(t, U8(62))
	JEQ(LabelRef("last" + name))
	la2 := GP64()
	LEAQ(Mem{Base: nxt.dls, Index: nxt.dls, Scale: 1}, la2)
	ORQ(nc, la2)
	RORXQ(U8(1), nxt.drs, t)
	ORQ(t, la2)
	CMPQ(la2, I8(-1))
	JEQ(LabelRef(try)) // row+3 exists and is blocked
	doomed(la, t, next)
	// Push: the level above keeps its untried squares in this level's
	// rest, and a level with none left is overwritten.
	MOVQ(cur.posib, Mem{Base: p, Disp: levelBytes + offRest})
	LEAQ(Mem{Base: p, Disp: levelBytes}, t)
	CMPQ(cur.posib, I8(-1))
	CMOVQNE(t, p)
	nxt.store(p)
	JMP(LabelRef("try" + other))

	Label("last" + name)
	// Each of the next row's untried squares completes a board.
	doomed(la, t, next)
	NOTQ(next)
	POPCNTQ(next, next)
	ADDQ(next, sols)
	ADDQ(next, nodes)
	JMP(LabelRef(try))

	Label(pop)
	a := cur
	if name == "B" {
		a = nxt
	}
	MOVQ(Mem{Base: p, Disp: offRest}, a.posib)
	SUBQ(U8(levelBytes), p)
	CMPQ(p, base)
	JEQ(LabelRef("walkDone"))
	MOVQ(Mem{Base: p, Disp: offCols}, a.c)
	MOVQ(Mem{Base: p, Disp: offDL}, a.dls)
	MOVQ(Mem{Base: p, Disp: offDR}, a.drs)
	JMP(LabelRef("tryA"))
}

// bannedReturn ends nextBMI: the nodes counted added to the search's, and
// whether it stopped at a completion.
func bannedReturn(bs, nodes GPVirtual, completion bool) {
	ADDQ(nodes, Mem{Base: bs, Disp: bNodes})
	v := U8(0)
	if completion {
		v = U8(1)
	}
	MOVB(v, addr(ReturnIndex(0)))
	RET()
}

// align32 aligns the next instruction to 32 bytes (the loops' heads,
// which every candidate comes back to; measured 2-3% faster at n = 15).
func align32() {
	Instruction(&ir.Instruction{Opcode: "PCALIGN", Operands: []Op{U8(32)}})
}

// doomed adds to next the squares engine.doomed returns for the free
// squares ^la below it (not empty); it overwrites la and t.
func doomed(la, t, next GPVirtual) {
	NOTQ(la)
	BLSMSKQ(la, t)
	LEAQ(Mem{Base: t, Index: t, Scale: 1, Disp: 1}, t) // columns up to the lowest plus one
	BSRQ(la, la)
	d := GP64()
	MOVQ(I32(-1), d)
	SHLXQ(la, d, d)
	SARQ(U8(1), d) // columns from the highest less one
	ANDQ(t, d)
	ORQ(d, next)
}

func nextBMI() {
	TEXT("nextBMI", NOSPLIT, "func(bs *uint64) bool")
	Pragma("noescape")
	Doc("nextBMI is engine.bannedSearch.nextGo in assembly: it runs the search to its next completion, left in the board, and reports whether there was one.")
	a := walkRegs{posib: GP64(), c: GP64(), dls: GP64(), drs: GP64()}
	b := walkRegs{posib: GP64(), c: GP64(), dls: GP64(), drs: GP64()}
	bsArg := addr(Param("bs"))
	bs := GP64()
	MOVQ(bsArg, bs)
	p, banp, nodes := GP64(), GP64(), GP64()
	MOVQ(Mem{Base: bs, Disp: bD}, p)
	SHLQ(U8(bLevelShift), p)
	ADDQ(bs, p)
	MOVQ(Mem{Base: bs, Disp: bPosib}, a.posib)
	XORQ(nodes, nodes)
	Label("bannedLoad")
	// Make level p current (in copy A's registers).
	MOVQ(Mem{Base: p, Disp: bCols}, a.c)
	MOVQ(Mem{Base: p, Disp: bDL}, a.dls)
	MOVQ(Mem{Base: p, Disp: bDR}, a.drs)
	MOVQ(Mem{Base: p, Disp: bRow}, banp)
	MOVQ(bsArg, bs)
	LEAQ(Mem{Base: bs, Index: banp, Scale: 8, Disp: bBan}, banp)
	bannedBody("A", a, b, p, banp, nodes, bsArg)
	bannedBody("B", b, a, p, banp, nodes, bsArg)

	Label("bannedDone")
	MOVQ(bsArg, bs)
	MOVQ(U32(0), Mem{Base: bs, Disp: bD})
	bannedReturn(bs, nodes, false)
}

// bannedBody is one copy of nextBMI's loop, as walkBody is of walkBMI's:
// banp points to the bans of the current level's row, and the board's
// word of that row is at a fixed distance from it.
// (One function: the loop's instructions in the order the assembly
// holds them, one register allocation.)
func bannedBody(name string, cur, nxt walkRegs, p, banp, nodes GPVirtual, bsAddr Mem) {
	other := map[string]string{"A": "B", "B": "A"}[name]
	try, pop := "btry"+name, "bpop"+name
	toBoard := bBoard - bBan
	nc, ndl, ndr := place(try, pop, cur, nxt, nodes)
	// free2: the free columns but the lowest; none means the next row is
	// the last, and its one column is free there: a completion.
	free2 := GP64()
	MOVQ(nc, free2)
	NOTQ(free2)
	BLSRQ(free2, free2)
	JZ(LabelRef("bcomplete" + name))
	LEAQ(Mem{Base: ndl, Index: ndl, Scale: 1}, nxt.dls)
	RORXQ(U8(1), ndr, nxt.drs)
	la := GP64()
	MOVQ(nc, la)
	ORQ(nxt.dls, la)
	ORQ(nxt.drs, la)
	ORQ(Mem{Base: banp, Disp: 16}, la)
	CMPQ(la, I8(-1))
	JEQ(LabelRef(try)) // row+2 blocked
	next := nxt.posib
	MOVQ(nc, next)
	ORQ(ndl, next)
	ORQ(ndr, next)
	ORQ(Mem{Base: banp, Disp: 8}, next)
	t := GP64()
	BLSRQ(free2, t)
	JZ(LabelRef("bpush" + name)) // no row+3
	la2 := free2                 // free2 is not needed any more
	LEAQ(Mem{Base: nxt.dls, Index: nxt.dls, Scale: 1}, la2)
	ORQ(nc, la2)
	RORXQ(U8(1), nxt.drs, t)
	ORQ(t, la2)
	ORQ(Mem{Base: banp, Disp: 24}, la2)
	CMPQ(la2, I8(-1))
	JEQ(LabelRef(try)) // row+3 blocked
	Label("bpush" + name)
	doomed(la, t, next)
	// The path: this row's queen (nc less the columns before it).
	MOVQ(nc, t)
	SUBQ(cur.c, t)
	MOVQ(t, Mem{Base: banp, Disp: toBoard})
	MOVQ(cur.posib, Mem{Base: p, Disp: 1<<bLevelShift + bRest})
	LEAQ(Mem{Base: p, Disp: 1 << bLevelShift}, t)
	CMPQ(cur.posib, I8(-1))
	CMOVQNE(t, p)
	ADDQ(U8(8), banp)
	MOVQ(nxt.c, Mem{Base: p, Disp: bCols})
	MOVQ(nxt.dls, Mem{Base: p, Disp: bDL})
	MOVQ(nxt.drs, Mem{Base: p, Disp: bDR})
	MOVQ(banp, t)
	SUBQ(bsAddr, t)
	SUBQ(U32(bBan), t)
	SHRQ(U8(3), t)
	MOVQ(t, Mem{Base: p, Disp: bRow})
	JMP(LabelRef("btry" + other))

	Label("bcomplete" + name)
	// Leave the completion in the board (this row's queen and the last
	// row's), save the search and return true.
	MOVQ(nc, t)
	SUBQ(cur.c, t)
	MOVQ(t, Mem{Base: banp, Disp: toBoard})
	NOTQ(nc)
	MOVQ(nc, Mem{Base: banp, Disp: toBoard + 8})
	bs := GP64()
	MOVQ(bsAddr, bs)
	MOVQ(cur.posib, Mem{Base: bs, Disp: bPosib})
	SUBQ(bs, p)
	SHRQ(U8(bLevelShift), p)
	MOVQ(p, Mem{Base: bs, Disp: bD})
	bannedReturn(bs, nodes, true)

	Label(pop)
	a := cur
	if name == "B" {
		a = nxt
	}
	MOVQ(Mem{Base: p, Disp: bRest}, a.posib)
	SUBQ(U8(1<<bLevelShift), p)
	CMPQ(p, bsAddr)
	JEQ(LabelRef("bannedDone"))
	JMP(LabelRef("bannedLoad"))
}
