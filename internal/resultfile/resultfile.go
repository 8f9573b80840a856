// Package resultfile reads and writes the files that carry per-task counts
// between runs and machines: checkpoint journals and shard result files.
//
// Both are text, one record per line, every line ending in its own
// checksum (" crc=" and the CRC-32C of what precedes it, 8 hex digits):
//
//	nqueens journal format=1 tool=0.1.0 n=16 method=sym placed=- plan=3f2a… tasks=6778 shard=0/1 crc=…
//	task 3.7.1 4312 539 0 0 91234 crc=…
//	end records=6778 total=14772512 unique=1846955 point=3000 rot90=64 nodes=280579164 crc=…
//
// The first line is the header (kind "journal" or "shard"; counts of
// other pieces add "piece=king" and, on the torus, "torus=yes"); "task"
// lines give a task's ID and its total (up to 320 bits: the rooks' and
// kings' closed forms),
// unique, point-symmetric and rot90-symmetric counts and nodes (64 bits
// each); a shard file ends with an "end" line
// holding the record count and the sums. A journal is appended to as tasks
// finish and has no end line; its last line may be torn by a crash, which
// [Read] reports and otherwise ignores.
package resultfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/big"
	"strconv"
	"strings"

	"github.com/nqueens/nqueens/internal/board"
	"github.com/nqueens/nqueens/internal/msg"
	"github.com/nqueens/nqueens/partition"
)

// Format is the version of the file format this package writes. Format 2
// binds every line after the header to its file: the line's checksum is
// seeded with the header's identity ([Header.Seed]), so a line copied from
// another count's file (another n, method, placement, piece, plan or
// shard) fails its checksum here. Format 1 (nqueens 0.2.0) is refused.
const Format = 2

// Kinds of file.
const (
	Journal = "journal"
	Shard   = "shard"
)

// ErrCorrupt is wrapped by every error about a file's content.
var ErrCorrupt = errors.New("corrupt file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header describes the count a file belongs to.
type Header struct {
	Kind   string // Journal or Shard
	Tool   string // the version of nqueens that wrote it
	N      int
	Method string
	Placed string // as board.PlacedString writes it
	Plan   string // the plan's fingerprint
	// Piece is what the count places ("" or "queen" for queens: the
	// header then has no piece field, as before pieces existed); Torus
	// that the diagonals wrap around.
	Piece  string
	Torus  bool
	Tasks  int // tasks in the whole plan
	Shard  int // this file's shard, 0-based
	Shards int // how many shards the plan was split into (1: none)
	// Started is when the journal was created (Unix seconds; 0: not
	// recorded, as in files written before it was). Shard files have none.
	Started int64
}

// Record is one task's counts. A total of 2^64 or more (the rooks' and
// kings' closed forms, up to 320 bits) keeps its higher words in TotalHi,
// least significant first; the line holds the decimal value.
type Record struct {
	ID                                 string
	Total, Unique, Point, Rot90, Nodes uint64
	TotalHi                            [partition.CountWords - 1]uint64
}

// BigTotal returns the record's total.
func (r Record) BigTotal() *big.Int {
	t := new(big.Int)
	for i := len(r.TotalHi) - 1; i >= 0; i-- {
		t.Lsh(t.Or(t, new(big.Int).SetUint64(r.TotalHi[i])), 64)
	}
	return t.Or(t, new(big.Int).SetUint64(r.Total))
}

// Sums are a file's totals, as its end line states them.
type Sums struct {
	Records                            int
	Total, Unique, Point, Rot90, Nodes *big.Int
}

// File is what Read found.
type File struct {
	Header  Header
	Records []Record
	// Lines is how many task lines it holds (Records' length, when Read
	// holds them).
	Lines int
	// End is the end line's sums; nil for a journal.
	End *Sums
	// Torn is set when a journal's last line was incomplete or damaged
	// and was ignored; Valid is the length of the file up to the last
	// good line, where appending may resume.
	Torn  bool
	Valid int64
}

// Board names what the count places: the piece ("queen" when the header
// has none), and " torus" after it when the diagonals wrap around.
func (h Header) Board() string { return board.BoardName(board.Piece(h.Piece), h.Torus) }

// Describe names the count a header belongs to in words: "n = 17
// (queen, sym), shard 0 of 2", with the placed pieces where there are any.
func (h Header) Describe() string {
	s := fmt.Sprintf("n = %d (%s, %s)", h.N, h.Board(), h.Method)
	if h.Placed != "" && h.Placed != "-" {
		s += " placed " + h.Placed
	}
	if h.Shards > 1 {
		s += fmt.Sprintf(", shard %d of %d", h.Shard, h.Shards)
	}
	return s
}

// Seed is the header's identity as the task and end lines' checksums are
// seeded with it: the CRC-32C of the count's n, method, placement, pieces,
// plan fingerprint, task count and shard.
func (h Header) Seed() uint32 {
	id := fmt.Sprintf("nqueens n=%d method=%s placed=%s board=%s plan=%s tasks=%d shard=%d/%d", h.N, h.Method, h.Placed, h.Board(), h.Plan, h.Tasks, h.Shard, h.Shards)
	return crc32.Checksum([]byte(id), castagnoli)
}

// seal appends " crc=XXXXXXXX\n" to line: its CRC-32C, continued from seed
// (0 for the header).
func seal(line []byte, seed uint32) []byte {
	sum := crc32.Update(seed, castagnoli, line)
	return fmt.Appendf(line, " crc=%08x\n", sum)
}

// AppendHeader appends h's line.
func AppendHeader(dst []byte, h Header) []byte {
	line := fmt.Appendf(nil, "nqueens %s format=%d tool=%s n=%d method=%s placed=%s plan=%s tasks=%d shard=%d/%d",
		h.Kind, Format, h.Tool, h.N, h.Method, h.Placed, h.Plan, h.Tasks, h.Shard, h.Shards)
	if h.Started != 0 {
		line = fmt.Appendf(line, " started=%d", h.Started)
	}
	if h.Piece != "" && h.Piece != "queen" {
		line = fmt.Appendf(line, " piece=%s", h.Piece)
	}
	if h.Torus {
		line = append(line, " torus=yes"...)
	}
	return append(dst, seal(line, 0)...)
}

// AppendRecord appends r's line in the file of header h.
func AppendRecord(dst []byte, h Header, r Record) []byte {
	line := fmt.Appendf(nil, "task %s %s %d %d %d %d", r.ID, r.BigTotal(), r.Unique, r.Point, r.Rot90, r.Nodes)
	return append(dst, seal(line, h.Seed())...)
}

// SumRecords adds up records exactly.
func SumRecords(recs []Record) Sums {
	s := newSums()
	for _, r := range recs {
		s.add(r)
	}
	return s
}

func newSums() Sums {
	return Sums{Total: new(big.Int), Unique: new(big.Int), Point: new(big.Int), Rot90: new(big.Int), Nodes: new(big.Int)}
}

// add adds one record to s.
func (s *Sums) add(r Record) {
	var x big.Int
	s.Records++
	s.Total.Add(s.Total, r.BigTotal())
	s.Unique.Add(s.Unique, x.SetUint64(r.Unique))
	s.Point.Add(s.Point, x.SetUint64(r.Point))
	s.Rot90.Add(s.Rot90, x.SetUint64(r.Rot90))
	s.Nodes.Add(s.Nodes, x.SetUint64(r.Nodes))
}

// AppendEnd appends the end line for records in the file of header h.
func AppendEnd(dst []byte, h Header, recs []Record) []byte {
	s := SumRecords(recs)
	line := fmt.Appendf(nil, "end records=%d total=%s unique=%s point=%s rot90=%s nodes=%s", s.Records, s.Total, s.Unique, s.Point, s.Rot90, s.Nodes)
	return append(dst, seal(line, h.Seed())...)
}

// Read parses a journal or shard file, holding all its records. Errors
// name the line and wrap [ErrCorrupt].
func Read(r io.Reader) (*File, error) {
	var recs []Record
	f, err := Scan(r, nil, func(rec Record, _ int) error {
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	f.Records = recs
	return f, nil
}

// Scan reads a journal or shard file as [Read] does, without holding its
// records, so that what reading costs does not grow with the file: check,
// if not nil, is called with the header before any record is read, and
// each with every task record and its line number, in file order; an
// error from either stops the reading and is returned as it is. The end
// line's sums are checked against the records as they pass. The File it
// returns has no Records. (One function: one pass over the lines, each
// kind checked where it is met.)
func Scan(r io.Reader, check func(Header) error, each func(rec Record, line int) error) (*File, error) {
	br := bufio.NewReader(r)
	f := &File{}
	sums := newSums()
	first, h, err := ReadHeader(br)
	if err != nil {
		return nil, err
	}
	f.Header = h
	if check != nil {
		if err := check(h); err != nil {
			return nil, err
		}
	}
	offset := int64(len(first))
	f.Valid = offset
	for lineNo := 2; ; lineNo++ {
		raw, err := readLine(br)
		if len(raw) == 0 && err == io.EOF {
			break
		}
		if errors.Is(err, errLong) {
			return nil, fmt.Errorf("%w: line %d is longer than %d bytes: this is not a journal or shard file", ErrCorrupt, lineNo, MaxLine)
		}
		if err != nil && err != io.EOF {
			return nil, err
		}
		complete := bytes.HasSuffix(raw, []byte("\n"))
		if bytes.HasSuffix(raw, []byte("\r\n")) {
			return nil, fmt.Errorf("%w: line %d ends in CR LF: the file was converted to Windows line endings (convert it back, e.g. with dos2unix; the checksums cover LF endings)", ErrCorrupt, lineNo)
		}
		line, ok := checkLine(bytes.TrimSuffix(raw, []byte("\n")), f.Header.Seed())
		last := err == io.EOF || isEOF(br)
		if !ok || !complete {
			if last && f.Header.Kind == Journal {
				f.Torn = true // a crash mid-append: ignore the last line
				break
			}
			if !complete {
				return nil, fmt.Errorf("%w: line %d is incomplete (the file is truncated)", ErrCorrupt, lineNo)
			}
			return nil, fmt.Errorf("%w: line %d: checksum mismatch or missing (the line was damaged or edited, or copied from another count's file)", ErrCorrupt, lineNo)
		}
		if f.End != nil {
			return nil, fmt.Errorf("%w: line %d: data after the end line", ErrCorrupt, lineNo)
		}
		fields := strings.Fields(string(line))
		switch {
		case len(fields) > 0 && fields[0] == "task":
			rec, err := parseRecord(fields)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrCorrupt, lineNo, err)
			}
			sums.add(rec)
			if err := each(rec, lineNo); err != nil {
				return nil, err
			}
		case len(fields) > 0 && fields[0] == "end":
			s, err := parseEnd(fields)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrCorrupt, lineNo, err)
			}
			f.End = &s
		default:
			return nil, fmt.Errorf("%w: line %d: neither a task nor an end line", ErrCorrupt, lineNo)
		}
		offset += int64(len(raw))
		f.Valid = offset
		if err == io.EOF {
			break
		}
	}
	if f.Header.Kind == "" {
		return nil, fmt.Errorf("%w: empty file", ErrCorrupt)
	}
	if f.Header.Kind == Shard && f.End == nil {
		return nil, fmt.Errorf("%w: no end line (the file is truncated)", ErrCorrupt)
	}
	f.Lines = sums.Records
	if e := f.End; e != nil {
		if sums.Records != e.Records || sums.Total.Cmp(e.Total) != 0 || sums.Unique.Cmp(e.Unique) != 0 ||
			sums.Point.Cmp(e.Point) != 0 || sums.Rot90.Cmp(e.Rot90) != 0 || sums.Nodes.Cmp(e.Nodes) != 0 {
			return nil, fmt.Errorf("%w: the end line's sums do not match the task lines", ErrCorrupt)
		}
	}
	return f, nil
}

// ReadHeader reads a file's first line and parses it as a header,
// returning the line as read. Errors wrap [ErrCorrupt].
func ReadHeader(br *bufio.Reader) ([]byte, Header, error) {
	raw, err := readLine(br)
	switch {
	case errors.Is(err, errLong):
		return nil, Header{}, fmt.Errorf("%w: line 1 is longer than %d bytes: this is not a journal or shard file", ErrCorrupt, MaxLine)
	case len(raw) == 0 && err == io.EOF:
		return nil, Header{}, fmt.Errorf("%w: empty file", ErrCorrupt)
	case err != nil && err != io.EOF:
		return nil, Header{}, err
	case !bytes.HasSuffix(raw, []byte("\n")):
		return raw, Header{}, fmt.Errorf("%w: line 1 is incomplete (the file is truncated)", ErrCorrupt)
	case bytes.HasSuffix(raw, []byte("\r\n")):
		return raw, Header{}, fmt.Errorf("%w: line 1 ends in CR LF: the file was converted to Windows line endings (convert it back, e.g. with dos2unix; the checksums cover LF endings)", ErrCorrupt)
	}
	line, ok := checkLine(bytes.TrimSuffix(raw, []byte("\n")), 0)
	if !ok {
		return raw, Header{}, fmt.Errorf("%w: line 1: checksum mismatch or missing (the line was damaged or edited, or copied from another count's file)", ErrCorrupt)
	}
	h, err := parseHeader(line)
	if err != nil {
		return raw, Header{}, fmt.Errorf("%w: line 1: %v", ErrCorrupt, err)
	}
	return raw, h, nil
}

// MaxLine bounds a line's length: real lines are a few hundred bytes.
const MaxLine = 64 << 10

var errLong = errors.New("line too long")

// readLine reads one line with its '\n' (none at the end of the input),
// refusing lines longer than MaxLine.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLine {
			return nil, errLong
		}
		line = append(line, chunk...)
		if err != bufio.ErrBufferFull {
			return line, err
		}
	}
}

func isEOF(br *bufio.Reader) bool {
	_, err := br.Peek(1)
	return err == io.EOF
}

// checkLine verifies and strips a line's " crc=XXXXXXXX", its checksum
// continued from seed.
func checkLine(line []byte, seed uint32) ([]byte, bool) {
	i := bytes.LastIndex(line, []byte(" crc="))
	if i < 0 || len(line)-i != len(" crc=")+8 {
		return nil, false
	}
	want, err := strconv.ParseUint(string(line[i+len(" crc="):]), 16, 32)
	if err != nil || crc32.Update(seed, castagnoli, line[:i]) != uint32(want) {
		return nil, false
	}
	return line[:i], true
}

func keyValues(fields []string) (map[string]string, error) {
	kv := map[string]string{}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return nil, fmt.Errorf("field %q is not key=value", f)
		}
		kv[k] = v
	}
	return kv, nil
}

func parseHeader(line []byte) (Header, error) {
	fields := strings.Fields(string(line))
	if len(fields) < 2 || fields[0] != "nqueens" || (fields[1] != Journal && fields[1] != Shard) {
		return Header{}, fmt.Errorf("not an nqueens journal or shard file")
	}
	kv, err := keyValues(fields[2:])
	if err != nil {
		return Header{}, err
	}
	if kv["format"] == "1" {
		return Header{}, fmt.Errorf("format 1, written by nqueens %s, whose lines are not bound to their file: this version reads format %d only (finish that count with nqueens %s)", msg.Quote(kv["tool"]), Format, msg.Quote(kv["tool"]))
	}
	if kv["format"] != strconv.Itoa(Format) {
		return Header{}, fmt.Errorf("format %q is not %d", kv["format"], Format)
	}
	h := Header{Kind: fields[1], Tool: kv["tool"], Method: kv["method"], Placed: kv["placed"], Plan: kv["plan"], Piece: kv["piece"]}
	if h.Piece == "queen" {
		h.Piece = "" // as AppendHeader writes queens: no field
	}
	switch kv["torus"] {
	case "yes":
		h.Torus = true
	case "":
	default:
		return Header{}, fmt.Errorf("malformed header")
	}
	var err1, err2, err3, err4, err5 error
	if s, ok := kv["started"]; ok {
		h.Started, err5 = strconv.ParseInt(s, 10, 64)
	}
	h.N, err1 = strconv.Atoi(kv["n"])
	h.Tasks, err2 = strconv.Atoi(kv["tasks"])
	a, b, _ := strings.Cut(kv["shard"], "/")
	h.Shard, err3 = strconv.Atoi(a)
	h.Shards, err4 = strconv.Atoi(b)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil || h.Method == "" || h.Plan == "" || h.Placed == "" ||
		h.Shards < 1 || h.Shard < 0 || h.Shard >= h.Shards || h.N < 0 || h.Tasks < 0 {
		return Header{}, fmt.Errorf("malformed header")
	}
	return h, nil
}

func parseRecord(fields []string) (Record, error) {
	if len(fields) != 7 || fields[1] == "" {
		return Record{}, fmt.Errorf("a task line has an ID and 5 counts")
	}
	var nums [5]uint64
	var hi [partition.CountWords - 1]uint64
	for i := range nums {
		v, err := strconv.ParseUint(fields[2+i], 10, 64)
		if i == 0 && err != nil && strings.Trim(fields[2], "0123456789") == "" {
			// A total past 2^64: up to 320 bits.
			t, ok := new(big.Int).SetString(fields[2], 10)
			if ok && t.Sign() >= 0 && t.BitLen() <= 64*partition.CountWords {
				low := new(big.Int).SetUint64(^uint64(0))
				word := func() uint64 { return new(big.Int).And(t, low).Uint64() }
				v, err = word(), nil
				for j := range hi {
					t.Rsh(t, 64)
					hi[j] = word()
				}
			}
		}
		if err != nil {
			return Record{}, fmt.Errorf("count %s is not a decimal count (accepted: digits only, up to 2^64 - 1; a total up to 2^%d - 1)", msg.Quote(fields[2+i]), 64*partition.CountWords)
		}
		nums[i] = v
	}
	return Record{ID: fields[1], Total: nums[0], TotalHi: hi, Unique: nums[1], Point: nums[2], Rot90: nums[3], Nodes: nums[4]}, nil
}

func parseEnd(fields []string) (Sums, error) {
	kv, err := keyValues(fields[1:])
	if err != nil {
		return Sums{}, err
	}
	s := Sums{}
	if s.Records, err = strconv.Atoi(kv["records"]); err != nil {
		return Sums{}, fmt.Errorf("records: %v", err)
	}
	for _, f := range []struct {
		key string
		dst **big.Int
	}{{"total", &s.Total}, {"unique", &s.Unique}, {"point", &s.Point}, {"rot90", &s.Rot90}, {"nodes", &s.Nodes}} {
		v, ok := new(big.Int).SetString(kv[f.key], 10)
		if !ok || v.Sign() < 0 {
			return Sums{}, fmt.Errorf("%s %q is not a count", f.key, kv[f.key])
		}
		*f.dst = v
	}
	return s, nil
}
