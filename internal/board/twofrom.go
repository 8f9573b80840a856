//go:build !twomiddle

package board

// joinTwoFrom is the least even board whose join parts its halves by two
// middle columns (see JoinMiddle). Built with -tags twomiddle it is 4, so
// that the tests named *TwoMiddle check such plans on boards small enough
// to count (twofrom_twomiddle.go; docs/testing.md).
const joinTwoFrom = 28
