package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/partition"
)

// This file is status: a run in progress, as a table or JSON.

// WriteStatus writes a run's status as a table, one shard a line.
func WriteStatus(w io.Writer, r nqueens.StatusReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if r.Shards > 1 {
		fmt.Fprintf(tw, "count %d%s (%s), %d shards\n", r.N, board(r.Piece, r.Torus), r.Method, r.Shards)
	} else {
		fmt.Fprintf(tw, "count %d%s (%s)\n", r.N, board(r.Piece, r.Torus), r.Method)
	}
	fmt.Fprintln(tw, "shard\ttasks\twork\tETA\tfiles")
	line := func(name string, s nqueens.ShardStatus) {
		eta := "-"
		switch {
		case s.Complete():
			eta = "done"
		case s.ETA > 0:
			eta = s.ETA.Round(time.Second).String()
		case len(s.Files) == 0 && name != "total":
			eta = "no file yet"
		default:
			eta = "unknown" // no journal that tells its start (or a start a wrong clock wrote)
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f%%\t%s\t%s\n", name, s.TasksDone, s.Tasks, 100*s.Fraction(), eta, strings.Join(s.Files, " "))
	}
	for _, s := range r.PerShard {
		line(fmt.Sprint(s.Shard), s)
	}
	line("total", r.Total)
	if len(r.Missing) > 0 {
		ms := make([]string, len(r.Missing))
		for i, m := range r.Missing {
			ms[i] = fmt.Sprint(m)
		}
		fmt.Fprintf(tw, "shards with no file yet: %s\n", strings.Join(ms, ", "))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the status: %w", err)
	}
	return nil
}

// board names a count's pieces after its n ("", " king", " queen torus").
func board(p nqueens.Piece, torus bool) string {
	if b := partition.BoardName(partition.Piece(p), torus); b != string(nqueens.Queen) {
		return " " + b
	}
	return ""
}

// Status is the JSON of a [nqueens.StatusReport]: snake_case keys, the
// piece omitted for queens.
type Status struct {
	N        int           `json:"n"`
	Piece    string        `json:"piece,omitempty"`
	Torus    bool          `json:"torus,omitempty"`
	Method   string        `json:"method"`
	Shards   int           `json:"shards"`
	Total    ShardStatus   `json:"total"`
	Missing  []int         `json:"missing_shards"`
	PerShard []ShardStatus `json:"per_shard"`
}

// ShardStatus is one shard's progress in [Status] (all shards' in its
// Total, without a shard number): its share of the work done in percent,
// whether it is complete, and the ETA in seconds (omitted when unknown:
// no journal tells when it started, or a wrong clock wrote its start).
type ShardStatus struct {
	Shard       *int     `json:"shard,omitempty"`
	Files       []string `json:"files,omitempty"`
	TasksDone   int      `json:"tasks_done"`
	Tasks       int      `json:"tasks"`
	WorkPercent float64  `json:"work_done_percent"`
	Complete    bool     `json:"complete"`
	Rate        float64  `json:"work_per_second,omitempty"`
	ETA         float64  `json:"eta_seconds,omitempty"`
}

// StatusOf is r's JSON.
func StatusOf(r nqueens.StatusReport) Status {
	shard := func(s nqueens.ShardStatus) ShardStatus {
		j := ShardStatus{Files: s.Files, TasksDone: s.TasksDone, Tasks: s.Tasks, WorkPercent: 100 * s.Fraction(), Complete: s.Complete(),
			Rate: s.Rate, ETA: s.ETA.Seconds()}
		if s.Shard >= 0 {
			j.Shard = &s.Shard
		}
		return j
	}
	st := Status{N: r.N, Piece: string(r.Piece), Torus: r.Torus, Method: string(r.Method), Shards: r.Shards, Total: shard(r.Total),
		Missing: r.Missing, PerShard: make([]ShardStatus, len(r.PerShard))}
	for i, s := range r.PerShard {
		st.PerShard[i] = shard(s)
	}
	return st
}
