package resultfile

import (
	"bytes"
	"io"
	"math/big"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var hdr = Header{Kind: Shard, Tool: "0.1.0", N: 8, Method: "sym", Placed: "-", Plan: "abc123", Tasks: 3, Shard: 1, Shards: 4}

var recs = []Record{
	{ID: "0.2", Total: 8, Unique: 1, Nodes: 40},
	{ID: "1.3.5", Total: 18446744073709551615, Unique: 7, Point: 4, Rot90: 2, Nodes: 18446744073709551615},
}

func shardFile() []byte {
	b := AppendHeader(nil, hdr)
	for _, r := range recs {
		b = AppendRecord(b, hdr, r)
	}
	return AppendEnd(b, hdr, recs)
}

func TestRoundTrip(t *testing.T) {
	f, err := Read(bytes.NewReader(shardFile()))
	require.NoError(t, err)
	assert.Equal(t, hdr, f.Header)
	assert.Equal(t, recs, f.Records)
	require.NotNil(t, f.End)
	assert.Equal(t, "18446744073709551623", f.End.Total.String(), "sums past 2^64 are exact")
	assert.False(t, f.Torn)
	assert.Equal(t, int64(len(shardFile())), f.Valid)
}

func TestJournalTorn(t *testing.T) {
	h := hdr
	h.Kind = Journal
	b := AppendHeader(nil, h)
	b = AppendRecord(b, h, recs[0])
	good := len(b)
	b = AppendRecord(b, h, recs[1])
	for cut := good + 1; cut < len(b); cut++ {
		f, err := Read(bytes.NewReader(b[:cut]))
		require.NoError(t, err, "cut at %d", cut)
		assert.True(t, f.Torn, "cut at %d", cut)
		assert.Equal(t, recs[:1], f.Records)
		assert.Equal(t, int64(good), f.Valid)
	}
	f, err := Read(bytes.NewReader(b))
	require.NoError(t, err)
	assert.False(t, f.Torn)
	assert.Len(t, f.Records, 2)
}

func TestCorrupt(t *testing.T) {
	good := shardFile()
	lines := strings.SplitAfter(string(good), "\n")
	flip := func(line int) []byte { // change one digit of a line, keep its checksum
		l := []byte(lines[line])
		i := bytes.IndexAny(l, "0123456789")
		l[i] = '0' + (l[i]-'0'+1)%10
		return []byte(strings.Join(lines[:line], "") + string(l) + strings.Join(lines[line+1:], ""))
	}
	for _, tc := range []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "empty file"},
		{"not ours", []byte("hello\n"), "line 1"},
		{"header bit flip", flip(0), "line 1"},
		{"record bit flip", flip(1), "line 2: checksum"},
		{"truncated mid-line", good[:len(good)-10], "incomplete"},
		{"no end line", good[:len(good)-len(lines[len(lines)-2])], "no end line"},
		{"end line lies", []byte(strings.Join(lines[:2], "") + string(AppendEnd(nil, hdr, recs[:1])[:0]) + string(AppendEnd(nil, hdr, recs))), "do not match"},
		{"data after end", append(append([]byte(nil), good...), AppendRecord(nil, hdr, recs[0])...), "after the end line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(tc.data))
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	// A damaged record in the middle of a journal is an error, not a tear.
	h := hdr
	h.Kind = Journal
	j := AppendHeader(nil, h)
	j = AppendRecord(j, h, recs[0])
	mid := len(j)
	j = AppendRecord(j, h, recs[1])
	j[mid+6] = 'X'
	j = AppendRecord(j, h, recs[0])
	_, err := Read(bytes.NewReader(j))
	assert.ErrorContains(t, err, "line 3: checksum")
}

// FuzzRead feeds arbitrary bytes to the parser: it must never panic, and
// whatever it accepts must survive being written and read again.
func FuzzRead(f *testing.F) {
	f.Add(shardFile())
	h := hdr
	h.Kind = Journal
	f.Add(AppendRecord(AppendHeader(nil, h), h, recs[0]))
	f.Add([]byte("nqueens journal format=1\n"))
	h.Piece, h.Torus = "king", true
	f.Add(AppendRecord(AppendHeader(nil, h), h, Record{ID: "1.2", Total: 5, TotalHi: [4]uint64{9, 0, 0, 3}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data))
		if err != nil {
			return
		}
		b := AppendHeader(nil, file.Header)
		for _, r := range file.Records {
			b = AppendRecord(b, file.Header, r)
		}
		if file.End != nil {
			b = AppendEnd(b, file.Header, file.Records)
		}
		again, err := Read(bytes.NewReader(b))
		require.NoError(t, err)
		assert.Equal(t, file.Header, again.Header)
		assert.Equal(t, len(file.Records), len(again.Records))
	})
}

// TestReadRefuses names the cause of files that are no result files: a line
// without end (/dev/zero), Windows line endings.
func TestReadRefuses(t *testing.T) {
	_, err := Read(io.LimitReader(zeros{}, 10<<20))
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "line 1 is longer than")
	crlf := bytes.ReplaceAll(shardFile(), []byte("\n"), []byte("\r\n"))
	_, err = Read(bytes.NewReader(crlf))
	assert.ErrorContains(t, err, "CR LF")
	// A shard file's end line with sums that are not its records'.
	good := shardFile()
	f, err := Read(bytes.NewReader(good))
	require.NoError(t, err)
	b := AppendHeader(nil, f.Header)
	for _, r := range f.Records[1:] {
		b = AppendRecord(b, f.Header, r)
	}
	_, err = Read(bytes.NewReader(AppendEnd(b, f.Header, f.Records)))
	assert.ErrorContains(t, err, "sums do not match")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestBigTotal writes and reads back records whose totals need 128 and
// 320 bits, and refuses one past 320.
func TestBigTotal(t *testing.T) {
	r := Record{ID: "3.1", Total: 12345, TotalHi: [4]uint64{7}, Nodes: 1}
	h := Header{Kind: Journal, Tool: "t", N: 30, Method: "mirror", Placed: "-", Plan: "p", Tasks: 1, Shards: 1}
	line := AppendRecord(nil, h, r)
	assert.Contains(t, string(line), "task 3.1 129127208515966873657 ")
	f, err := Read(bytes.NewReader(append(AppendHeader(nil, h), line...)))
	require.NoError(t, err)
	require.Len(t, f.Records, 1)
	assert.Equal(t, r, f.Records[0])
	// 64 rooks: 64!, five words.
	fact, _ := new(big.Int).SetString("126886932185884164103433389335161480802865516174545192198801894375214704230400000000000000", 10)
	var words [5]uint64
	x := new(big.Int).Set(fact)
	for i := range words {
		words[i] = new(big.Int).And(x, new(big.Int).SetUint64(^uint64(0))).Uint64()
		x.Rsh(x, 64)
	}
	r = Record{ID: "r", Total: words[0], TotalHi: [4]uint64(words[1:])}
	assert.Equal(t, fact, r.BigTotal())
	line = AppendRecord(nil, h, r)
	assert.Contains(t, string(line), "task r "+fact.String()+" ")
	f, err = Read(bytes.NewReader(append(AppendHeader(nil, h), line...)))
	require.NoError(t, err)
	assert.Equal(t, r, f.Records[0])
	// 2^320 does not fit: a wrong line.
	_, err = parseRecord([]string{"task", "r", new(big.Int).Lsh(big.NewInt(1), 320).String(), "0", "0", "0", "1"})
	assert.ErrorContains(t, err, "a total up to 2^320 - 1")
	top := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 320), big.NewInt(1))
	r, err = parseRecord([]string{"task", "r", top.String(), "0", "0", "0", "1"})
	require.NoError(t, err)
	assert.Equal(t, top, r.BigTotal())
}

// TestForeignLine checks that a line is bound to its file: the same line
// under another count's header (another n, method, placement, piece,
// plan or shard) fails its checksum, in the middle of a file; and that
// format 1 files are refused by name.
func TestForeignLine(t *testing.T) {
	h := hdr
	h.Kind = Journal
	line := AppendRecord(nil, h, recs[0])
	for _, other := range []func(*Header){
		func(o *Header) { o.N++ },
		func(o *Header) { o.Method = "join" },
		func(o *Header) { o.Placed = "0:1" },
		func(o *Header) { o.Piece = "king" },
		func(o *Header) { o.Plan = "another" },
		func(o *Header) { o.Shard, o.Shards = 1, 2 },
	} {
		o := h
		other(&o)
		b := append(AppendHeader(nil, o), line...)
		b = AppendRecord(b, o, recs[1])
		_, err := Read(bytes.NewReader(b))
		assert.ErrorContains(t, err, "line 2: checksum mismatch or missing (the line was damaged or edited, or copied from another count's file)", "%+v", o)
	}
	_, err := Read(strings.NewReader("nqueens journal format=1 tool=0.2.0 n=8 crc=00000000\n"))
	assert.Error(t, err)
	_, err = parseHeader([]byte("nqueens journal format=1 tool=0.2.0 n=8"))
	assert.ErrorContains(t, err, "format 1, written by nqueens \"0.2.0\"")
}

// TestRecordMessages: a malformed count names the value and what is
// accepted, without Go's parser messages.
func TestRecordMessages(t *testing.T) {
	_, err := parseRecord(strings.Fields("task 1.2 +2 0 0 0 5"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `count "+2" is not a decimal count`)
	assert.NotContains(t, err.Error(), "strconv")
}
