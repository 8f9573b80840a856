// Package long tells the tests whether the long run was asked for: the
// cases that take tens of seconds each (every split of the join's pair
// counting, the committed n = 23 shards, counts of n = 16 and 17 by every
// method, a count stopped in a terminal) run only when NQUEENS_LONG is
// set, as CI sets it, so that the default `go test ./...` stays within
// about two minutes on two cores.
package long

import (
	"os"
	"testing"
)

// Var is the environment variable that asks for the long run.
const Var = "NQUEENS_LONG"

// Run reports whether the long run was asked for (NQUEENS_LONG set, and
// not -short, which skips more).
func Run() bool { return os.Getenv(Var) != "" && !testing.Short() }

// Skip skips t unless the long run was asked for, saying why it is long.
func Skip(t testing.TB, why string) {
	t.Helper()
	if !Run() {
		t.Skipf("long (%s): set %s=1 to run it, as CI does", why, Var)
	}
}

// SkipRace skips t under the race detector: a test whose work runs on one
// goroutine gives it nothing to check, and runs many times slower under it
// (it still runs in the plain and the long runs).
func SkipRace(t testing.TB) {
	t.Helper()
	if Race {
		t.Skip("one goroutine's work: nothing for the race detector (it runs without -race)")
	}
}
