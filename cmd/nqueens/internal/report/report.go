// Package report holds the output formats of the nqueens command: the one
// JSON object of a count (count, merge, table), the table formats (text,
// CSV, JSON, Markdown, OEIS b-files), solutions as boards, columns or
// JSON, and the status of a run in progress.
package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens"
)

// Count is the JSON object of count --json, merge --json and each row of
// table --format json: the same keys in the same order, counts as exact
// decimal strings, the class counts only where the method gives them.
type Count struct {
	N          int         `json:"n"`
	Piece      string      `json:"piece,omitempty"` // absent for queens
	Torus      bool        `json:"torus,omitempty"`
	Method     string      `json:"method"`
	Workers    int         `json:"workers,omitempty"`
	Devices    []string    `json:"devices,omitempty"`
	Total      string      `json:"total"`
	Unique     string      `json:"unique,omitempty"`
	PointSym   string      `json:"point_symmetric,omitempty"`
	Rot90Sym   string      `json:"rot90_symmetric,omitempty"`
	Nodes      string      `json:"nodes"`
	Tasks      int         `json:"tasks"`
	Placed     []string    `json:"placed,omitempty"`
	Shard      string      `json:"shard,omitempty"`
	Partial    bool        `json:"partial,omitempty"`
	Resumed    int         `json:"resumed_tasks,omitempty"`
	Seconds    float64     `json:"seconds,omitempty"`
	Startup    float64     `json:"startup_seconds,omitempty"` // of Seconds, the devices' start: contexts, program builds
	VerifiedBy string      `json:"verified_by,omitempty"`
	Memory     string      `json:"memory_limit,omitempty"`
	Note       string      `json:"note,omitempty"`
	Files      []string    `json:"files,omitempty"`
	DeviceJoin *DeviceJoin `json:"device_join,omitempty"`
}

// DeviceJoin is where a device join's time went (seconds, summed over
// the host goroutines that list tasks for the devices, and over the
// launches) and what its launches held.
type DeviceJoin struct {
	Hosts      int     `json:"hosts"`
	List       float64 `json:"list_seconds"`
	Sort       float64 `json:"sort_seconds"`
	Wait       float64 `json:"wait_seconds"`
	Write      float64 `json:"write_seconds"`
	Kernel     float64 `json:"kernel_seconds"`
	Launches   int64   `json:"launches"`
	Blocks     int64   `json:"blocks"`
	Patterns   int64   `json:"patterns"`
	ItemBlocks int64   `json:"item_blocks"`
	// Copied is the bytes copied to the devices and back.
	Copied int64 `json:"bytes_copied"`
	// Device is the device's own time per stage, where its runtime
	// reports it (NQUEENS_OPENCL_PROFILE=1), and Busy the share of the
	// count's wall time the devices spent on its commands (their stages'
	// sum over the seconds, per device).
	Device *DeviceStages `json:"device_stages,omitempty"`
	Busy   float64       `json:"device_busy,omitempty"`
}

// DeviceStages are a device join's seconds on the device, by its
// runtime's profiling events.
type DeviceStages struct {
	CopyIn  float64 `json:"copy_in_seconds"`
	List    float64 `json:"list_seconds"`
	Sort    float64 `json:"sort_seconds"`
	Join    float64 `json:"join_seconds"`
	CopyOut float64 `json:"copy_out_seconds"`
}

// Of fills the fields of a report that come from the counts.
func Of(c nqueens.Counts) Count {
	rep := Count{N: c.N, Torus: c.Torus, Method: string(c.Method), Workers: c.Workers, Devices: c.Devices, Total: c.Total.String(), Nodes: c.Nodes.String(), Tasks: c.Tasks,
		Resumed: c.Resumed, Seconds: c.Elapsed.Seconds(), Startup: c.Startup.Seconds()}
	if c.Piece != "" && c.Piece != nqueens.Queen {
		rep.Piece = string(c.Piece)
	}
	for _, q := range c.Placed {
		rep.Placed = append(rep.Placed, q.String())
	}
	if u, ok := c.Unique(); ok {
		rep.Unique = u.String()
	}
	if p, ok := c.PointSymmetric(); ok {
		rep.PointSym = p.String()
		r, _ := c.Rot90Symmetric()
		rep.Rot90Sym = r.String()
	} else if c.Piece == nqueens.King && len(c.Placed) == 0 {
		rep.Note = "kings are counted in closed form (the recurrence of OEIS A002464): the total only"
	} else if rep.Piece != "" || c.Torus {
		rep.Note = "other pieces and the torus are counted with the mirror method: the total only"
	} else {
		rep.Note = fmt.Sprintf("the %s method counts the total only; --method sym or join also give unique, point_symmetric and rot90_symmetric", c.Method)
	}
	if c.Partial() {
		rep.Shard, rep.Partial = fmt.Sprintf("%d/%d", c.Shard, c.Shards), true
	}
	if p := c.DeviceJoin; p != nil {
		rep.DeviceJoin = &DeviceJoin{Hosts: p.Hosts, List: p.List.Seconds(), Sort: p.Sort.Seconds(), Wait: p.Wait.Seconds(), Write: p.Write.Seconds(),
			Kernel: p.Kernel.Seconds(), Launches: p.Launches, Blocks: p.Blocks, Patterns: p.Patterns, ItemBlocks: p.ItemBlocks, Copied: p.Copied}
		if s := p.Stages; s.CopyIn+s.List+s.Sort+s.Join+s.CopyOut > 0 {
			rep.DeviceJoin.Device = &DeviceStages{CopyIn: s.CopyIn.Seconds(), List: s.List.Seconds(), Sort: s.Sort.Seconds(), Join: s.Join.Seconds(), CopyOut: s.CopyOut.Seconds()}
			if sec := c.Elapsed.Seconds(); sec > 0 && len(c.Devices) > 0 {
				rep.DeviceJoin.Busy = (s.CopyIn + s.List + s.Sort + s.Join + s.CopyOut).Seconds() / sec / float64(len(c.Devices))
			}
		}
	}
	rep.VerifiedBy = string(c.CheckedBy)
	if c.MemoryLimit > 0 {
		rep.Memory = humanize.IBytes(uint64(c.MemoryLimit))
	}
	return rep
}

// WriteJSON writes v as one line of JSON.
func WriteJSON(w io.Writer, v any) error {
	if err := json.NewEncoder(w).Encode(v); err != nil {
		return fmt.Errorf("writing the result: %w", err)
	}
	return nil
}
