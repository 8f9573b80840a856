package nqueens_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nqueens/nqueens"
)

func ExampleCount() {
	c, err := nqueens.Count(context.Background(), 8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	// Output: 92
}

// Every count the method gives, and an explicit absence where it gives
// none.
func ExampleCounts_Unique() {
	ctx := context.Background()
	for _, m := range []nqueens.Method{nqueens.Join, nqueens.Sym, nqueens.Mirror} {
		c, err := nqueens.Count(ctx, 12, nqueens.WithMethod(m))
		if err != nil {
			fmt.Println(err)
			return
		}
		u, ok := c.Unique()
		p, _ := c.PointSymmetric()
		r, _ := c.Rot90Symmetric()
		if !ok {
			fmt.Printf("%s: total %v, unique absent\n", m, c.Total)
			continue
		}
		fmt.Printf("%s: total %v, unique %v, point %v, rot90 %v\n", m, c.Total, u, p, r)
	}
	// Output:
	// join: total 14200, unique 1787, point 80, rot90 8
	// sym: total 14200, unique 1787, point 80, rot90 8
	// mirror: total 14200, unique absent
}

// A progress callback sees the estimated work done grow to what was
// planned, once per finished task.
func ExampleWithProgress() {
	var last nqueens.Progress
	c, err := nqueens.Count(context.Background(), 14, nqueens.WithProgress(func(p nqueens.Progress) { last = p }))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c, last.Done == last.Planned, last.TasksDone == last.Tasks)
	// Output: 365596 true true
}

// A long count shows its progress and stops when its context is
// cancelled: here after its first finished task, as a Ctrl-C or a time
// limit would. The error is a *StoppedError that names its cause and what
// was done; with WithJournalFile the same call resumes from there.
func ExampleWithProgress_cancel() {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	_, err := nqueens.Count(ctx, 16, nqueens.WithWorkers(1), nqueens.WithMethod(nqueens.Mirror),
		nqueens.WithProgress(func(p nqueens.Progress) {
			if p.TasksDone >= 1 {
				cancel(errors.New("enough for the example"))
			}
		}))
	var stopped *nqueens.StoppedError
	if errors.As(err, &stopped) {
		fmt.Println(stopped.Cause)
		fmt.Println(stopped.Done > 0 && stopped.Done < stopped.Tasks)
		fmt.Println(strings.HasPrefix(err.Error(), "enough for the example: stopped after "))
	}
	// Output:
	// enough for the example
	// true
	// true
}

// Three machines count a shard each; merging their shard files gives the
// count of the whole board, with the unique count that no shard alone has.
func ExampleMerge() {
	ctx := context.Background()
	var files []nqueens.File
	for i := range 3 {
		var out bytes.Buffer
		if _, err := nqueens.Count(ctx, 13, nqueens.WithShard(i, 3, &out)); err != nil {
			fmt.Println(err)
			return
		}
		files = append(files, nqueens.File{Name: fmt.Sprintf("shard%d.result", i), R: &out})
	}
	c, err := nqueens.Merge(context.Background(), files...)
	if err != nil {
		fmt.Println(err)
		return
	}
	u, _ := c.Unique()
	fmt.Println(c.Total, u)
	// Output: 73712 9233
}

func ExampleTable() {
	for c, err := range nqueens.Table(context.Background(), 4, 8) {
		if err != nil {
			fmt.Println(err)
			return
		}
		u, _ := c.Unique()
		fmt.Println(c.N, c.Total, u)
	}
	// Output:
	// 4 2 1
	// 5 10 2
	// 6 4 1
	// 7 40 6
	// 8 92 12
}

func ExampleList() {
	for cols, err := range nqueens.List(context.Background(), 6) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(cols)
	}
	// Output:
	// [1 3 5 0 2 4]
	// [2 5 1 4 0 3]
	// [3 0 4 1 5 2]
	// [4 2 0 5 3 1]
}

func ExampleVerify() {
	fmt.Println(nqueens.Verify([]int{1, 3, 0, 2}))
	fmt.Println(nqueens.Verify([]int{0, 2, 4, 1, 3, 5}))
	// Output:
	// <nil>
	// rows 0 and 5 share a diagonal
}

// Other pieces, and queens on the torus: the total alone.
func ExampleWithPiece() {
	ctx := context.Background()
	for _, p := range []nqueens.Piece{nqueens.Superqueen, nqueens.King, nqueens.Rook} {
		c, err := nqueens.Count(ctx, 10, nqueens.WithPiece(p))
		if err != nil {
			fmt.Println(err)
			return
		}
		_, ok := c.Unique()
		fmt.Println(p, c.Total, ok)
	}
	c, _ := nqueens.Count(ctx, 13, nqueens.WithTorus())
	fmt.Println("queen torus", c.Total)
	// Output:
	// superqueen 4 false
	// king 479306 false
	// rook 3628800 false
	// queen torus 4524
}

// Placed pieces: the solutions that hold them, for queens and for the
// other pieces alike.
func ExampleWithPlaced() {
	ctx := context.Background()
	corner := nqueens.Square{Row: 0, Col: 0}
	c, _ := nqueens.Count(ctx, 8, nqueens.WithPlaced(corner))
	fmt.Println("queens holding a1:", c.Total)
	c, _ = nqueens.Count(ctx, 8, nqueens.WithPlaced(corner, nqueens.Square{Row: 1, Col: 4}))
	fmt.Println("queens holding a1 and e2:", c.Total)
	c, _ = nqueens.Count(ctx, 10, nqueens.WithPiece(nqueens.Superqueen), nqueens.WithPlaced(nqueens.Square{Row: 0, Col: 2}))
	fmt.Println("superqueens holding c1:", c.Total)
	for cols, err := range nqueens.List(ctx, 10, nqueens.WithPiece(nqueens.Superqueen), nqueens.WithPlaced(nqueens.Square{Row: 0, Col: 2})) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(cols)
	}
	// Output:
	// queens holding a1: 4
	// queens holding a1 and e2: 1
	// superqueens holding c1: 1
	// [2 5 8 0 3 6 9 1 4 7]
}
