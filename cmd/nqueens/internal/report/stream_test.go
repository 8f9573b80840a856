package report

import (
	"errors"
	"iter"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

func solutions(n int, err error) iter.Seq2[[]int, error] {
	return func(yield func([]int, error) bool) {
		for i := range n {
			if !yield([]int{i, 0}, nil) {
				return
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// TestSolutionsWrite: formats, blank lines between boards, the limit, the
// search's error, and a closed pipe ending quietly.
func TestSolutionsWrite(t *testing.T) {
	var b strings.Builder
	k, err := Solutions{Format: Columns}.Write(&b, solutions(3, nil))
	assert.NoError(t, err)
	assert.Equal(t, int64(3), k)
	assert.Equal(t, "0 0\n1 0\n2 0\n", b.String())

	b.Reset()
	k, err = Solutions{Format: Board, Blank: true, Limit: 2}.Write(&b, solutions(5, nil))
	assert.NoError(t, err)
	assert.Equal(t, int64(2), k)
	assert.Equal(t, "Q .\nQ .\n\n. Q\nQ .\n", b.String())

	b.Reset()
	stop := errors.New("stopped")
	k, err = Solutions{Format: Columns}.Write(&b, solutions(2, stop))
	assert.Same(t, stop, err)
	assert.Equal(t, int64(2), k)
	assert.Equal(t, "0 0\n1 0\n", b.String(), "what came before the error is written")

	_, err = Solutions{Format: Columns}.Write(failWriter{syscall.EPIPE}, solutions(2, nil))
	assert.NoError(t, err, "a closed pipe is no error")
	_, err = Solutions{Format: Columns}.Write(failWriter{syscall.ENOSPC}, solutions(2, nil))
	assert.ErrorContains(t, err, "writing the solutions: ")
}

// TestTableCheck refuses the tables a format cannot hold.
func TestTableCheck(t *testing.T) {
	for _, tc := range []struct {
		t     Table
		piece string
		want  string
	}{
		{Table{Format: "text", Seq: "total", Board: "queen", Method: "auto"}, "queen", ""},
		{Table{Format: "xml", Seq: "total", Board: "queen", Method: "auto"}, "queen", `unknown --format "xml"`},
		{Table{Format: "bfile", Seq: "all", Board: "queen", Method: "auto"}, "queen", `unknown sequence "all"`},
		{Table{Format: "bfile", Seq: "unique", Board: "queen", Method: "sym"}, "queen", ""},
		{Table{Format: "bfile", Seq: "unique", Board: "queen", Method: "mirror"}, "queen", "--seq unique needs --method sym or join"},
		{Table{Format: "bfile", Seq: "unique", Board: "king", Method: "mirror"}, "king", "--seq unique: king boards are counted with the mirror method"},
		{Table{Format: "bfile", Seq: "total", Board: "knight", Method: "mirror"}, "knight", "no OEIS sequence lists the totals of knight boards"},
		{Table{Format: "bfile", Seq: "total", Board: "bishop", Method: "mirror"}, "bishop", ""}, // the library refuses it
	} {
		err := tc.t.Check(tc.piece)
		if tc.want == "" {
			assert.NoError(t, err, "%+v", tc.t)
		} else {
			assert.ErrorContains(t, err, tc.want, "%+v", tc.t)
		}
	}
}
