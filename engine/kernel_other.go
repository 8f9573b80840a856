//go:build !amd64 || purego

package engine

// walkRows runs walk's search in Go where no assembly kernel is built.
func walkRows(s start, posib uint64) (sols, nodes uint64) { return walkGo(s, posib) }

// next runs the banned search to its next completion, in Go where no
// assembly kernel is built.
func (bs *bannedSearch) next() bool { return bs.nextGo() }

// useAsm tells walkBanned whether its search runs in assembly: never here.
func useAsm(start) bool { return false }

func searchKernel() string { return "go" }
