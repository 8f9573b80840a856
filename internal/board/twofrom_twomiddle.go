//go:build twomiddle

package board

// joinTwoFrom is 4 in a build for the tests of two middle columns on
// small boards (go test -tags twomiddle -run TwoMiddle ./partition
// ./engine): every even board from 4 on is then planned as n = 28 and
// above are.
const joinTwoFrom = 4
