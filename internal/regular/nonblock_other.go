//go:build !unix

package regular

// oNonBlock: elsewhere a FIFO is not a path to open; the Stat before the
// open refuses what is not a regular file.
const oNonBlock = 0
