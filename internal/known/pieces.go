package known

// Pieces holds the published totals of the other pieces' problems (n
// pieces on the n×n board, one per row and column, no two attacking), by
// nqueens' name for the board, from n = 0 (where OEIS starts at n = 1, the
// empty board counts as one). No OEIS sequence lists the knights' totals
// with one per row and column; the tests check them against the brute force
// of internal/reference.
var Pieces = map[string]PieceCounts{
	// A051223: superqueens (queen and knight moves), n = 1..26.
	"superqueen": {"A051223", "Number of ways of placing n nonattacking superqueens on an n X n board", 1, []uint64{
		1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876, 5180, 32516, 202900,
		1330622, 8924976, 64492432, 495864256, 3977841852, 34092182276,
		306819842212, 2883202816808, 28144109776812, 286022102245804,
	}},
	// A002464: Hertzsprung's problem, kings one per row and column,
	// n = 0..14.
	"king": {"A002464", "Hertzsprung's problem: ways to arrange n non-attacking kings on an n X n board, with 1 in each row and column", 0, []uint64{
		1, 1, 0, 0, 2, 14, 90, 646, 5242, 47622, 479306, 5296790, 63779034,
		831283558, 11661506218,
	}},
	// A000142: rooks, n! (the tests compute it; no list needed).
	"rook": {"A000142", "Factorial numbers n! = 1*2*3*4*...*n (order of symmetric group S_n, number of permutations of n letters)", 0, nil},
	// A051906: queens on the torus (diagonals wrap around), n = 1..19.
	"queen torus": {"A051906", "Number of ways of placing n nonattacking queens on an n X n toroidal chessboard", 1, []uint64{
		1, 1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692, 0,
		820496,
	}},
}

// PieceCounts is one board's totals: its OEIS A-number and offset (the
// first n OEIS lists) and the totals from n = 0.
type PieceCounts struct {
	OEIS   string
	Title  string // as OEIS names it
	Offset int
	Total  []uint64
}

// SequenceOf returns the OEIS sequence that the counts seq (total, unique,
// point or rot90) of board (a piece's name, with " torus" after it for
// the torus; "queen" for the n-queens problem) make, if there is one: the
// other pieces have their totals' only.
func SequenceOf(board, seq string) (Sequence, bool) {
	if board == "queen" {
		s, ok := Sequences[seq]
		return s, ok
	}
	p, ok := Pieces[board]
	if !ok || seq != "total" {
		return Sequence{}, false
	}
	return Sequence{p.OEIS, p.Title, p.Offset}, true
}
