package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math/big"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nqueens/nqueens"
	"github.com/nqueens/nqueens/internal/known"
	"github.com/nqueens/nqueens/internal/machine"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// This file is tables: a row per board in text, CSV, JSON, Markdown or
// an OEIS b-file, written as each row is counted.

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

// Check refuses, before anything is counted, a table its format cannot
// hold: an unknown format or --seq, or a b-file of a sequence that no
// OEIS entry lists for the board or that the method does not count
// (unique, point and rot90 need sym or join). The options' own rules
// (a piece or method that does not exist) are the library's: Check lets
// them pass for it to refuse.
func (w *Table) Check(piece string) error {
	if !slices.Contains(Formats, w.Format) {
		return fmt.Errorf("unknown --format %q (accepted: %s)", w.Format, strings.Join(Formats, ", "))
	}
	if _, ok := known.Sequences[w.Seq]; !ok {
		return fmt.Errorf("unknown sequence %s for --seq (accepted: total, unique, point, rot90)", msg.Quote(w.Seq))
	}
	if _, err := partition.ParsePiece(piece); err != nil || w.Format != "bfile" {
		return nil
	}
	if _, ok := known.SequenceOf(w.Board, w.Seq); !ok {
		if _, any := known.SequenceOf(w.Board, "total"); any {
			return fmt.Errorf("--seq %s: %s boards are counted with the mirror method, whose b-file is the total's (--seq total)", w.Seq, w.Board)
		}
		return fmt.Errorf("no OEIS sequence lists the totals of %s boards: --format bfile writes queens, superqueens, kings, rooks and queens on the torus", w.Board)
	}
	if m, err := partition.ParseMethod(w.Method); err == nil && w.Seq != "total" && !m.Classes() {
		return fmt.Errorf("--seq %s needs --method sym or join: %s counts the total only", w.Seq, m)
	}
	return nil
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
				machine.Detect().CPU, runtime.Version(), time.Now().UTC().Format("2006-01-02"))
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
