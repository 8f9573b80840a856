// Package report holds the output formats of the nqueens command: the one
// JSON object of a count (count, merge, table), the table formats (text,
// CSV, JSON, Markdown, OEIS b-files), solutions as boards, columns or
// JSON, and the status of a run in progress.
package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/benchmark"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/partition"
)

// Count is the JSON object of count --json, merge --json and each row of
// table --format json: the same keys in the same order, counts as exact
// decimal strings, the class counts only where the method gives them.
type Count struct {
	N          int      `json:"n"`
	Piece      string   `json:"piece,omitempty"` // absent for queens
	Torus      bool     `json:"torus,omitempty"`
	Method     string   `json:"method"`
	Workers    int      `json:"workers,omitempty"`
	Total      string   `json:"total"`
	Unique     string   `json:"unique,omitempty"`
	PointSym   string   `json:"point_symmetric,omitempty"`
	Rot90Sym   string   `json:"rot90_symmetric,omitempty"`
	Nodes      string   `json:"nodes"`
	Tasks      int      `json:"tasks"`
	Placed     []string `json:"placed,omitempty"`
	Shard      string   `json:"shard,omitempty"`
	Partial    bool     `json:"partial,omitempty"`
	Resumed    int      `json:"resumed_tasks,omitempty"`
	Seconds    float64  `json:"seconds,omitempty"`
	VerifiedBy string   `json:"verified_by,omitempty"`
	Memory     string   `json:"memory_limit,omitempty"`
	Note       string   `json:"note,omitempty"`
	Files      []string `json:"files,omitempty"`
}

// Of fills the fields of a report that come from the counts.
func Of(c nqueens.Counts) Count {
	rep := Count{N: c.N, Torus: c.Torus, Method: string(c.Method), Workers: c.Workers, Total: c.Total.String(), Nodes: c.Nodes.String(), Tasks: c.Tasks,
		Resumed: c.Resumed, Seconds: c.Elapsed.Seconds()}
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
	} else if rep.Piece != "" || c.Torus {
		rep.Note = "other pieces and the torus are counted with the mirror method: the total only"
	} else {
		rep.Note = fmt.Sprintf("the %s method counts the total only; --method sym or join also give unique, point_symmetric and rot90_symmetric", c.Method)
	}
	if c.Partial() {
		rep.Shard, rep.Partial = fmt.Sprintf("%d/%d", c.Shard, c.Shards), true
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

// Formats lists the table formats.
var Formats = []string{"text", "csv", "json", "markdown", "bfile"}

// Header names the table's columns.
var Header = []string{"n", "total", "unique", "point_symmetric", "rot90_symmetric", "method", "seconds"}

// MetaHeader names the columns --meta adds to CSV.
var MetaHeader = []string{"workers", "nodes", "nodes_per_second", "cpu", "go_version", "date"}

// cells are a row's columns, as Header names them.
func cells(c nqueens.Counts) []string {
	row := []string{strconv.Itoa(c.N), c.Total.String(), "", "", ""}
	if u, ok := c.Unique(); ok {
		row[2] = u.String()
	}
	if p, ok := c.PointSymmetric(); ok {
		r, _ := c.Rot90Symmetric()
		row[3], row[4] = p.String(), r.String()
	}
	return append(row, string(c.Method), strconv.FormatFloat(c.Elapsed.Seconds(), 'f', 3, 64))
}

// Table writes the rows of a table as they are counted.
type Table struct {
	Out      io.Writer
	Format   string // one of Formats
	Seq      string // the b-file's sequence: total, unique, point or rot90
	Board    string // what is counted: known.SequenceOf's board
	Method   string // as asked (auto, or one method)
	Meta     bool   // CSV: the MetaHeader columns too
	From, To int
	csv      *csv.Writer
	widths   []int
}

// Begin writes what comes before the first row.
func (w *Table) Begin() error {
	var err error
	switch w.Format {
	case "csv":
		w.csv = csv.NewWriter(w.Out)
		h := Header
		if w.Meta {
			h = append(append([]string(nil), h...), MetaHeader...)
		}
		err = w.csv.Write(h)
		w.csv.Flush()
		err = firstErr(err, w.csv.Error())
	case "markdown":
		_, err = fmt.Fprintf(w.Out, "| %s |\n|%s\n", strings.Join(Header, " | "), strings.Repeat("---:|", len(Header)))
	case "text":
		w.widths = TextWidths(w.From, w.To)
		if w.Board != "" && w.Board != "queen" {
			// Other pieces: at most to! arrangements (one per row and
			// column), the rooks' exactly.
			f := new(big.Int).MulRange(1, int64(max(w.To, 1)))
			w.widths[1] = max(w.widths[1], len(f.String()))
		}
		_, err = io.WriteString(w.Out, alignRight(Header, w.widths))
	case "bfile":
		s, _ := known.SequenceOf(w.Board, w.Seq)
		method := w.Method
		if method == string(nqueens.Auto) {
			method = fmt.Sprintf("join for n = %d..%d, sym otherwise", partition.JoinFrom, partition.JoinMaxN)
			if w.To < partition.JoinFrom || w.From >= partition.JoinFrom && w.To <= partition.JoinMaxN {
				method = string(partition.Best(w.From)) // one method for every row
			}
		}
		_, err = fmt.Fprintf(w.Out, "# %s: %s.\n# Computed by nqueens (github.com/nqueens/nqueens), method %s.\n", s.OEIS, s.Title, method)
	}
	return writeErr(err)
}

// Row writes one row.
func (w *Table) Row(c nqueens.Counts) error {
	var err error
	switch w.Format {
	case "csv":
		row := cells(c)
		if w.Meta {
			rate := 0.0
			if s := c.Elapsed.Seconds(); s > 0 {
				rate = c.Nodes.Float64() / s
			}
			row = append(row, strconv.Itoa(c.Workers), c.Nodes.String(), strconv.FormatFloat(rate, 'f', 0, 64),
				benchmark.Detect().CPU, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
		}
		err = w.csv.Write(row)
		w.csv.Flush()
		err = firstErr(err, w.csv.Error())
	case "json":
		return WriteJSON(w.Out, Of(c))
	case "markdown":
		_, err = fmt.Fprintf(w.Out, "| %s |\n", strings.Join(cells(c), " | "))
	case "text":
		_, err = io.WriteString(w.Out, alignRight(cells(c), w.widths))
	case "bfile":
		if s, _ := known.SequenceOf(w.Board, w.Seq); c.N < s.Offset {
			return nil
		}
		v := c.Total
		switch w.Seq {
		case "unique":
			v, _ = c.Unique()
		case "point":
			v, _ = c.PointSymmetric()
		case "rot90":
			v, _ = c.Rot90Symmetric()
		}
		_, err = fmt.Fprintf(w.Out, "%d %s\n", c.N, v)
	}
	return writeErr(err)
}

// TextWidths are the text format's column widths for rows from..to, known
// before the first row is counted so that rows stream: the widest of the
// header and the published counts (beyond n = 27, a digit more per n).
func TextWidths(from, to int) []int {
	widths := make([]int, len(Header))
	for i, h := range Header {
		widths[i] = len(h)
	}
	widths[0] = max(widths[0], len(strconv.Itoa(to)))
	widths[5] = max(widths[5], len("mirror"))
	digits := func(x uint64) int { return len(strconv.FormatUint(x, 10)) }
	for n := from; n <= to; n++ {
		if n > known.MaxN {
			extra := n - known.MaxN
			widths[1] = max(widths[1], digits(known.Total[known.MaxN])+extra)
			widths[2] = max(widths[2], digits(known.Unique[known.MaxN])+extra)
			continue
		}
		widths[1] = max(widths[1], digits(known.Total[n]))
		widths[2] = max(widths[2], digits(known.Unique[n]))
		widths[3] = max(widths[3], digits(known.PointSym(n)))
		widths[4] = max(widths[4], digits(known.Rot90Sym[n]))
	}
	return widths
}

// alignRight writes cells right-aligned in their widths, two spaces apart.
func alignRight(cells []string, widths []int) string {
	var sb strings.Builder
	for i, c := range cells {
		sb.WriteString(strings.Repeat(" ", max(0, widths[i]+2-len(c))))
		sb.WriteString(c)
	}
	sb.WriteByte('\n')
	return sb.String()
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// writeErr marks a failed write of the output.
func writeErr(err error) error {
	if err != nil {
		return fmt.Errorf("writing the table: %w", err)
	}
	return nil
}

// Columns appends "c0 c1 … cn-1\n".
func Columns(dst []byte, cols []int) []byte {
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	return append(dst, '\n')
}

// Board appends the board, one row per line, squares separated by
// spaces: ". Q . .".
func Board(dst []byte, cols []int) []byte {
	n := len(cols)
	for _, c := range cols {
		for j := 0; j < n; j++ {
			if j > 0 {
				dst = append(dst, ' ')
			}
			if j == int(c) {
				dst = append(dst, 'Q')
			} else {
				dst = append(dst, '.')
			}
		}
		dst = append(dst, '\n')
	}
	return dst
}

// JSON appends {"n":N,"columns":[…]}.
func JSON(dst []byte, cols []int) []byte {
	dst = append(dst, `{"n":`...)
	dst = strconv.AppendInt(dst, int64(len(cols)), 10)
	dst = append(dst, `,"columns":[`...)
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(c), 10)
	}
	return append(dst, "]}\n"...)
}

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
// whether it is complete, and the ETA in seconds.
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
