// Package known holds the published n-queens counts: the tests check
// against them, and a table's progress weighs its rows by them.
package known

// Total is OEIS A000170: the number of solutions on an n×n board, n = 0..27.
var Total = []uint64{
	1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
	2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884,
	314666222712, 2691008701644, 24233937684440, 227514171973736,
	2207893435808352, 22317699616364044, 234907967154122528,
}

// Unique is OEIS A002562: solutions up to rotation and reflection,
// n = 0..27 (A002562 starts at n = 1; the empty board is one class).
var Unique = []uint64{
	1, 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
	1846955, 11977939, 83263591, 621012754, 4878666808, 39333324973,
	336376244042, 3029242658210, 28439272956934, 275986683743434,
	2789712466510289, 29363495934315694,
}

// Rot90Sym is OEIS A033148: solutions equal to their own 90° rotation,
// n = 0..27 (A033148 starts at n = 1; the empty board is symmetric).
var Rot90Sym = []uint64{
	1, 1, 0, 0, 2, 2, 0, 0, 0, 0, 0, 0, 8, 8, 0, 0, 64, 128, 0, 0, 480, 704,
	0, 0, 3328, 3264, 0, 0,
}

// PointSym returns the number of solutions equal to their own 180°
// rotation (OEIS A032522), which follows from the other three by Burnside's
// lemma: no solution on a board of n ≥ 2 is fixed by a reflection, so
// 8·Unique = Total + PointSym + 2·Rot90Sym. For n ≤ 1 the single board is
// fixed by every symmetry and PointSym is 1.
func PointSym(n int) uint64 {
	if n <= 1 {
		return 1
	}
	return 8*Unique[n] - Total[n] - 2*Rot90Sym[n]
}

// MaxN is the largest n with published counts here.
const MaxN = 27

// Sequence describes one of the OEIS sequences the counts make.
type Sequence struct {
	OEIS   string // A-number
	Title  string // as OEIS names it
	Offset int    // the first n OEIS lists
}

// Sequences are the counts' OEIS sequences, by the name nqueens gives
// them: total, unique, point and rot90.
var Sequences = map[string]Sequence{
	"total":  {"A000170", "Number of ways of placing n nonattacking queens on an n X n board", 0},
	"unique": {"A002562", "Number of ways of placing n nonattacking queens on an n X n board, up to rotations and reflections", 1},
	"point":  {"A032522", "Number of n-queens solutions symmetric under 180-degree rotation", 1},
	"rot90":  {"A033148", "Number of n-queens solutions symmetric under 90-degree rotation", 1},
}
