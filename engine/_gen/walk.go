package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// The backtracking kernels (engine/kernel_amd64.s): engine.walkGo and
// engine.nextGo in assembly, node for node the same search with every value
// of the inner loop in a register. They use BMI1 (ANDN, BLSR, BLSMSK),
// BMI2 (SHLX) and POPCNT.
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

func walkSet() {
	walkBMI()
}

// candidate is the part of both kernels that takes the lowest untried
// square of posib: it returns the queen's bit and marks it tried.
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
	sols, err := ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	MOVQ(U32(0), sols.Addr) // counted in memory: solutions are rare next to nodes
	base, err := Param("st").Resolve()
	if err != nil {
		panic(err)
	}
	// Two copies of the loop with the registers' roles swapped: a push
	// makes the child's values current by jumping to the other copy, and
	// moves nothing.
	walkBody("A", a, b, p, nodes, sols.Addr, base.Addr)
	walkBody("B", b, a, p, nodes, sols.Addr, base.Addr)
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
	Label(try)
	CMPQ(cur.posib, I8(-1))
	JEQ(LabelRef(pop))
	bit := candidate(cur.posib)
	INCQ(nodes)
	// The queen's bit is in none of the masks (it was free), so adding
	// is ORing: one LEA each for the columns and the left diagonal.
	nc, ndl, ndr := nxt.c, GP64(), GP64()
	LEAQ(Mem{Base: cur.c, Index: bit, Scale: 1}, nc)
	LEAQ(Mem{Base: cur.dls, Index: bit, Scale: 2}, ndl)
	MOVQ(bit, ndr)
	SHRQ(U8(1), ndr)
	ORQ(cur.drs, ndr)
	// The next row has a free square (bit was not doomed), and row+2
	// exists: no row+2 free square, no completion.
	LEAQ(Mem{Base: ndl, Index: ndl, Scale: 1}, nxt.dls)
	MOVQ(ndr, nxt.drs)
	SHRQ(U8(1), nxt.drs)
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
	// Two columns left: the next two rows are counted here.
	t := GP64()
	MOVQ(nc, t)
	NOTQ(t)
	BLSRQ(t, t)
	BLSRQ(t, t)
	JZ(LabelRef("last" + name))
	la2 := GP64()
	LEAQ(Mem{Base: nxt.dls, Index: nxt.dls, Scale: 1}, la2)
	ORQ(nc, la2)
	MOVQ(nxt.drs, t)
	SHRQ(U8(1), t)
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
