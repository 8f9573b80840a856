package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// This file is status: a run in progress, as a table or JSON.

// MaxShardLines is how many shards [WriteStatus] lists one a line
// unless asked for every line: past it, the summary alone reads.
const MaxShardLines = 32

// WriteStatus writes a run's status: a summary first (the shards done,
// in progress and with no file, each as ranges such as "0-49999,
// 50001-99998", the slowest shards in progress, the total and its ETA),
// then a table of one shard a line when perShard is set or the count has
// at most [MaxShardLines] shards.
func WriteStatus(w io.Writer, r nqueens.StatusReport, perShard bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if r.Shards > 1 {
		fmt.Fprintf(tw, "count %d%s (%s), %d shards\n", r.N, pieceSuffix(r.Piece, r.Torus), r.Method, r.Shards)
	} else {
		fmt.Fprintf(tw, "count %d%s (%s)\n", r.N, pieceSuffix(r.Piece, r.Torus), r.Method)
	}
	eta := func(name string, s nqueens.ShardStatus) string {
		switch {
		case s.Complete():
			return "done"
		case s.ETA > 0 && s.ETA < time.Second:
			return "under 1s"
		case s.ETA > 0:
			return s.ETA.Round(time.Second).String()
		case len(s.Files) == 0 && name != "total":
			return "no file yet"
		}
		return "unknown" // no journal that tells its start (or a start a wrong clock wrote)
	}
	if r.Shards > 1 {
		var done, running []int
		var slow []nqueens.ShardStatus
		for _, s := range r.PerShard {
			switch {
			case s.Complete():
				done = append(done, s.Shard)
			case len(s.Files) > 0:
				running = append(running, s.Shard)
				slow = append(slow, s)
			}
		}
		group := func(what string, xs []int) {
			if len(xs) > 0 {
				fmt.Fprintf(tw, "%s: %d of %d shards: %s\n", what, len(xs), r.Shards, msg.Ranges(xs))
			}
		}
		group("done", done)
		group("in progress", running)
		group("no file yet", r.Missing)
		if len(slow) > 1 {
			slices.SortStableFunc(slow, func(a, b nqueens.ShardStatus) int { return cmp.Compare(a.Fraction(), b.Fraction()) })
			var names []string
			for _, s := range slow[:min(3, len(slow))] {
				names = append(names, fmt.Sprintf("%d (%.1f%%, ETA %s)", s.Shard, 100*s.Fraction(), eta("", s)))
			}
			fmt.Fprintf(tw, "furthest behind: %s\n", strings.Join(names, ", "))
		}
	}
	line := func(name string, s nqueens.ShardStatus) {
		files := make([]string, len(s.Files))
		for i, f := range s.Files {
			files[i] = msg.Path(f)
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%.1f%%\t%s\t%s\n", name, s.TasksDone, s.Tasks, 100*s.Fraction(), eta(name, s), strings.Join(files, " "))
	}
	fmt.Fprintln(tw, "shard\ttasks\twork\tETA\tfiles")
	if perShard || r.Shards <= MaxShardLines {
		for _, s := range r.PerShard {
			line(fmt.Sprint(s.Shard), s)
		}
	}
	line("total", r.Total)
	if !perShard && r.Shards > MaxShardLines {
		fmt.Fprintf(tw, "(%d shards: --per-shard lists each, --json gives them all)\n", r.Shards)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing the status: %w", err)
	}
	return nil
}

// pieceSuffix names a count's pieces after its n ("", " king", " queen torus").
func pieceSuffix(p nqueens.Piece, torus bool) string {
	if b := board.BoardName(board.Piece(p), torus); b != string(nqueens.Queen) {
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
