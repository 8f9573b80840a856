// Package boardtext reads boards as people write them: rows of '.' and
// 'Q', or a line of 0-based columns, one board at a time from a stream of
// them. It is the command's (verify's) text format; the library takes
// columns.
package boardtext

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
)

// MaxN is the largest board read: the largest one nqueens.Solve writes,
// so that every board solve prints can be checked. A row longer or a
// board taller is refused as soon as it passes MaxN (or, for a board of
// rows, as soon as it has more rows than its first row has squares), so
// reading holds at most one board's columns, whatever the input.
const MaxN = board.MaxSolveN

// headLen is how much of a line is kept for messages (msg.Quote shows at
// most msg.MaxQuote bytes of it).
const headLen = msg.MaxQuote + 16

// Reader reads boards from a stream, one at a time, without holding
// their text: boards of rows are separated by blank lines (or by a line
// of columns); a line of columns ("1 3 0 2") is a board of its own. A line
// is a board's row when its first character other than a space is '.',
// 'Q' or 'q', and a line of columns otherwise.
type Reader struct {
	br   *bufio.Reader
	cols []int32 // the board's columns as read (4 bytes a row)
	out  []int   // as Next returns them
	head []byte  // the current line's first bytes, for messages
}

// NewReader reads boards from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64<<10)}
}

// ErrSyntax is wrapped by the errors of boards that cannot be read.
var ErrSyntax = errors.New("unreadable board")

// Next returns the next board as the column of each row's queen (-1:
// none, -2: several), for nqueens.Verify, or io.EOF after the last. Its
// slice is reused by the next call. An unreadable board is an error
// wrapping [ErrSyntax] (messages quote at most 80 bytes of the input); a
// read error is returned as it is.
func (r *Reader) Next() ([]int, error) {
	r.cols = r.cols[:0]
	width := -1 // the board of rows' width, once its first row is read
	for {
		c, err := r.skipSpace()
		if err != nil {
			if err == io.EOF && width >= 0 {
				return r.endRows(width)
			}
			return nil, err
		}
		switch {
		case c == '\n' && width >= 0:
			return r.endRows(width)
		case c == '\n':
			continue
		case c == '.' || c == 'Q' || c == 'q':
			r.br.UnreadByte()
			w, err := r.row(width)
			if err != nil {
				return nil, err
			}
			width = w
		case width >= 0:
			// A line of columns ends a board of rows; it is read next.
			r.br.UnreadByte()
			return r.endRows(width)
		default:
			r.br.UnreadByte()
			return r.columns()
		}
	}
}

// skipSpace returns the next byte that is not a space, a tab or a
// carriage return.
func (r *Reader) skipSpace() (byte, error) {
	for {
		c, err := r.br.ReadByte()
		if err != nil {
			return 0, err
		}
		if c != ' ' && c != '\t' && c != '\r' {
			return c, nil
		}
	}
}

func syntaxf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrSyntax, fmt.Sprintf(format, args...))
}

// row reads one row of squares to the end of its line and appends its
// queen's column; width is the board's, -1 for its first row. It returns
// the row's width.
func (r *Reader) row(width int) (int, error) {
	rowNo := len(r.cols)
	if width >= 0 && rowNo >= width {
		return 0, syntaxf("row %d is one too many: the rows have %s (a board has as many rows as columns)", rowNo, squares(width))
	}
	queen, n := -1, 0
	for {
		c, err := r.br.ReadByte()
		if err == io.EOF || c == '\n' {
			break
		}
		if err != nil {
			return 0, err
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '.':
		case 'Q', 'q':
			if queen == -1 {
				queen = n
			} else {
				queen = -2
			}
		default:
			return 0, syntaxf("row %d: unexpected %q (accepted: '.' for an empty square, 'Q' for a queen)", rowNo, rune(c))
		}
		n++
		if n > MaxN || width >= 0 && n > width {
			break
		}
	}
	switch {
	case n > MaxN:
		return 0, syntaxf("row %d has more than %d squares (accepted: boards of at most %d rows and columns)", rowNo, MaxN, MaxN)
	case width >= 0 && n != width:
		more := ""
		if n > width {
			more = " or more"
		}
		return 0, syntaxf("row %d has %s%s, want %d (every row as long as the first)", rowNo, squares(n), more, width)
	}
	r.cols = append(r.cols, int32(queen))
	return n, nil
}

// squares says "1 square", "n squares".
func squares(n int) string {
	if n == 1 {
		return "1 square"
	}
	return strconv.Itoa(n) + " squares"
}

// endRows ends a board of rows.
func (r *Reader) endRows(width int) ([]int, error) {
	if h := len(r.cols); h != width {
		rows := "rows"
		if h == 1 {
			rows = "row"
		}
		return nil, syntaxf("%d %s of %s (a board has as many rows as columns)", h, rows, squares(width))
	}
	return r.board(), nil
}

// columns reads a line of 0-based columns separated by spaces or commas.
// Commas separate fields one for one (with spaces around them or not): an
// empty field between two commas is a missing column, not nothing.
func (r *Reader) columns() ([]int, error) {
	r.head = r.head[:0]
	l := lineScan{r: r, bigRow: -1}
	for {
		c, err := r.br.ReadByte()
		if err != nil && err != io.EOF {
			return nil, err
		}
		if err == io.EOF || c == '\n' {
			l.end()
			if l.err == nil && l.commas && l.inPart == 0 {
				l.err = syntaxf("an empty column between commas in %s (accepted: 0-based columns separated by spaces or commas)", r.quoteHead())
			}
			break
		}
		if len(r.head) < headLen {
			r.head = append(r.head, c)
		}
		if l.err != nil {
			if len(r.head) < headLen {
				continue // read on for the message's quote of the line
			}
			break // the error ends the reading
		}
		l.byte(c)
	}
	if l.err == errEmptyField {
		l.err = syntaxf("an empty column between commas in %s (accepted: 0-based columns separated by spaces or commas)", r.quoteHead())
	}
	if l.err != nil {
		return nil, l.err
	}
	if l.squares {
		return r.fromSquares()
	}
	n := len(r.cols)
	for row, c := range r.cols {
		if c < 0 || int(c) >= n {
			v := int(c)
			if row == l.bigRow {
				v = l.big
			}
			return nil, syntaxf("column %d of row %d is off the %d×%d board (accepted: 0..%d)", v, row, n, n, n-1)
		}
	}
	return r.board(), nil
}

// lineScan is the state of one line's reading by [Reader.columns]: the
// token being read, the line's kind, and its first error. A line whose
// first field starts with a letter or holds a colon is a list of
// squares, one a queen, as --place takes them: chess squares
// ("a1,b3,c5,d2,e4": column a..z, row from 1) or 0-based row:col pairs;
// r.cols holds each square's row and column in turn until the line ends.
type lineScan struct {
	r       *Reader
	tok     []byte
	tokLong bool // the token is longer than tok holds
	commas  bool // a comma seen
	inPart  int  // words in the current part (between commas)
	bigRow  int  // the first row whose column is beyond int32, -1 for none
	big     int  // that column
	squares bool // the line is a list of squares
	err     error
}

// byte reads one byte of the line, not its end.
func (l *lineScan) byte(c byte) {
	switch c {
	case ' ', '\t', '\r':
		l.end()
	case ',':
		l.end()
		if l.inPart == 0 && l.err == nil {
			l.err = errEmptyField // worded once the line's head is read
		}
		l.commas, l.inPart = true, 0
	default:
		if len(l.tok) < 24 {
			l.tok = append(l.tok, c)
		} else {
			l.tokLong = true
		}
	}
}

// end ends the token read, if any: a square or a column.
func (l *lineScan) end() {
	if len(l.tok) > 0 && l.err == nil {
		cols := l.r.cols
		if len(cols) == 0 && l.inPart == 0 && !l.commas && (isLetter(l.tok[0]) || bytes.IndexByte(l.tok, ':') >= 0) {
			l.squares = true
		}
		if l.squares {
			l.square()
		} else {
			l.column()
		}
		l.inPart++
	}
	l.tok, l.tokLong = l.tok[:0], false
}

// square adds the token, a square, to the line's.
func (l *lineScan) square() {
	sq, err := board.ParseSquares(string(l.tok))
	switch {
	case len(l.r.cols)/2 >= MaxN:
		l.err = syntaxf("more than %d squares (accepted: boards of at most %d rows)", MaxN, MaxN)
	case err != nil || l.tokLong:
		l.err = syntaxf("%s is not a square (accepted: a line of squares like a1,b3,c5 or 0:0,1:2,2:4, as --place takes them, or of 0-based columns)", msg.Quote(string(l.tok)))
	default:
		l.r.cols = append(l.r.cols, int32(min(sq[0].Row, MaxN)), int32(min(sq[0].Col, MaxN)))
	}
}

// column adds the token, the next row's column, to the line's.
func (l *lineScan) column() {
	row := len(l.r.cols)
	c, err := strconv.Atoi(string(l.tok))
	if err == nil && c != int(int32(c)) {
		// Off every board; the first such is kept for the message.
		if l.bigRow < 0 {
			l.bigRow, l.big = row, c
		}
		c = math.MinInt32
	}
	switch {
	case row >= MaxN:
		l.err = syntaxf("more than %d columns (accepted: boards of at most %d rows)", MaxN, MaxN)
	case err != nil || l.tokLong:
		q := msg.Quote(string(l.tok))
		if l.tokLong {
			q = strings.TrimSuffix(q, "…") + "…"
		}
		l.err = syntaxf("column %s of row %d is not an integer (accepted: 0-based columns separated by spaces or commas)", q, row)
	}
	l.r.cols = append(l.r.cols, int32(c))
}

// fromSquares turns the squares read (row and column pairs in r.cols)
// into the board of as many rows as squares: each row's column, -1 for a
// row without a queen, -2 for one with several.
func (r *Reader) fromSquares() ([]int, error) {
	pairs := r.cols
	n := len(pairs) / 2
	cols := make([]int32, n)
	for i := range cols {
		cols[i] = -1
	}
	for i := 0; i < len(pairs); i += 2 {
		row, col := int(pairs[i]), int(pairs[i+1])
		if row >= n || col >= n {
			return nil, syntaxf("square %s is off the board: a line of %d %s is a %d×%d board (accepted: %s)", board.Square{Row: row, Col: col}.Chess(), n, map[bool]string{true: "square", false: "squares"}[n == 1], n, n, board.Span{N: n, Chess: true})
		}
		if cols[row] != -1 {
			cols[row] = -2
		} else {
			cols[row] = int32(col)
		}
	}
	r.cols = append(r.cols[:0], cols...)
	return r.board(), nil
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// board returns the columns read as ints, in a slice of their length.
func (r *Reader) board() []int {
	if cap(r.out) < len(r.cols) || cap(r.out) > 2*len(r.cols)+1024 {
		r.out = make([]int, len(r.cols))
	}
	r.out = r.out[:len(r.cols)]
	for i, c := range r.cols {
		r.out[i] = int(c)
	}
	if cap(r.cols) > 1<<16 {
		r.cols = nil // a large board's buffer is not kept for the next
	}
	return r.out
}

// errEmptyField marks an empty field until the line is read for its head.
var errEmptyField = errors.New("empty field")

// quoteHead quotes the current line's head for a message (cut, with
// "…", when the line is longer than msg.MaxQuote bytes).
func (r *Reader) quoteHead() string { return msg.Quote(string(r.head)) }

// Buffered reports whether input is read and waiting: if not, the next
// call to Next may wait for it.
func (r *Reader) Buffered() bool { return r.br.Buffered() > 0 }

// Parse reads one board from text, as [Reader] does (an argument of the
// command): rows of '.' and 'Q' (with or without spaces between squares),
// a list of 0-based columns ("1 3 0 2" or "1,3,0,2"), or of its queens'
// squares ("b1,d2,a3,c4" or "0:1,1:3,2:0,3:2").
func Parse(text string) ([]int, error) {
	r := NewReader(strings.NewReader(text))
	cols, err := r.Next()
	if err == io.EOF {
		return nil, syntaxf("empty board")
	}
	if err != nil {
		return nil, err
	}
	cols = append([]int(nil), cols...)
	if _, err := r.Next(); err != io.EOF {
		return nil, syntaxf("more than one board in one argument (accepted: one board each)")
	}
	return cols, nil
}
