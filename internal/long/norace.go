//go:build !race

package long

// Race is set when the tests run under the race detector.
const Race = false
