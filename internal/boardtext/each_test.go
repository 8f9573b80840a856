package boardtext

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEach hands boards over one at a time and names the unreadable one.
func TestEach(t *testing.T) {
	var got [][]int
	err := Each(context.Background(), strings.NewReader("1 3 0 2\n\n.Q\nQ.\n"), func(cols []int, more bool) error {
		got = append(got, append([]int(nil), cols...))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 3, 0, 2}, {1, 0}}, got)

	err = Each(context.Background(), strings.NewReader("0\n\n.Q.\nQ.\n"), func([]int, bool) error { return nil })
	var be *BoardError
	require.True(t, errors.As(err, &be), "%v", err)
	assert.Equal(t, 2, be.Board)
	assert.ErrorIs(t, err, ErrSyntax)
	assert.NotContains(t, err.Error(), ErrSyntax.Error(), "the board's number says it already")
	assert.Regexp(t, `^board 2: `, err.Error())

	stop := errors.New("stop")
	assert.Same(t, stop, Each(context.Background(), strings.NewReader("0\n0\n"), func([]int, bool) error { return stop }))
}

// TestEachCancelled: a reader blocked on a pipe does not hold up a stop.
func TestEachCancelled(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	cause := errors.New("signal")
	go func() { w.Write([]byte("1 3 0 2\n")); cancel(cause) }()
	err := Each(ctx, r, func([]int, bool) error { return nil })
	assert.Same(t, cause, err)
}

// TestParseAll names the first argument that cannot be read.
func TestParseAll(t *testing.T) {
	boards, err := ParseAll([]string{"1 3 0 2", "0"})
	require.NoError(t, err)
	assert.Equal(t, [][]int{{1, 3, 0, 2}, {0}}, boards)
	_, err = ParseAll([]string{"0", "x y"})
	var be *BoardError
	require.True(t, errors.As(err, &be))
	assert.Equal(t, 2, be.Board)
}
