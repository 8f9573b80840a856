// Package backendtest is a device back end for the tests: registered by
// a test (Register), under the name "host", its devices run the
// backtracking methods' batches (backend.Searcher) in plain Go on the
// host, a search any reader can check. It shows what a back end is: one
// folder that registers a Kind, and nothing edited elsewhere.
package backendtest

import (
	"context"
	"fmt"
	"testing"

	"github.com/nqueens/nqueens/internal/backend"
)

// Name is the back end's name in device specs: "host", "host:N",
// "host:all".
const Name = "host"

// Register registers the back end with devices devices until the test
// ends.
func Register(t testing.TB, devices int) {
	t.Helper()
	backend.Register(backend.Kind{
		Name: Name,
		Devices: func() ([]backend.Info, error) {
			infos := make([]backend.Info, devices)
			for i := range infos {
				infos[i] = backend.Info{Kind: Name, Index: i, Name: fmt.Sprintf("host device %d (Go, a test back end)", i), Type: "cpu",
					Vendor: "nqueens tests", ComputeUnits: 1}
			}
			return infos, nil
		},
		Open: func(info backend.Info) (backend.Opened, error) {
			return &Device{name: info.Name}, nil
		},
		NoDevice: "registered with no device",
	})
	t.Cleanup(func() { backend.Unregister(Name) })
}

// Device is an opened device of the back end.
type Device struct{ name string }

// Name names the device.
func (d *Device) Name() string { return d.name }

// Close releases nothing.
func (d *Device) Close() error { return nil }

// Search counts each start of the batch by a plain depth-first search:
// every square of its first level that the start leaves untried, then
// every free square of each row below (less the row's bans for a banned
// start), a completion where the last row takes a queen. It counts the
// walk and the banned searches, not the classified one (the sym
// method's).
func (d *Device) Search(ctx context.Context, b *backend.SearchBatch) error {
	b.Out = append(b.Out[:0], make([]uint64, 5*b.Len())...)
	for j := range b.Cols {
		if err := ctx.Err(); err != nil {
			return err
		}
		var bans []uint64
		switch mode := b.Mode[j]; backend.Mode(mode & 3) {
		case backend.ModeWalk:
		case backend.ModeBanned:
			at := int(mode>>8) * 64
			bans = b.Bans[at : at+64]
		default:
			return fmt.Errorf("%s: classifying completions (the sym method) is not implemented by this back end: count with the mirror method", d.name)
		}
		sols, nodes := search(b.N, b.Row, b.Cols[j], b.LD[j], b.RD[j], b.Posib[j], bans)
		b.Out[5*j], b.Out[5*j+4] = sols, nodes
	}
	return nil
}

// search counts the completions below row row, whose queens take the
// columns cols (bits n and above set) and the diagonals ld and rd (as
// they fall on row row), trying the squares not in taken on row row; the
// nodes are the queens placed.
func search(n, row int, cols, ld, rd, taken uint64, bans []uint64) (sols, nodes uint64) {
	for free := ^taken; free != 0; free &= free - 1 {
		bit := free & -free
		nodes++
		if row == n-1 {
			sols++
			continue
		}
		c, l, r := cols|bit, (ld|bit)<<1, (rd|bit)>>1
		next := c | l | r
		if bans != nil {
			next |= bans[row+1]
		}
		s, k := search(n, row+1, c, l, r, next, bans)
		sols += s
		nodes += k
	}
	return sols, nodes
}
