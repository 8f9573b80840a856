// Package reference is a slow, obviously correct n-queens counter the tests
// check the fast engine against. It uses no bit tricks and no symmetry:
// queens are placed row by row, each checked against every queen above.
package reference

import "slices"

// Solutions calls yield with every solution of the n×n board, as the
// column of each row's queen, in lexicographic order; it stops early when
// yield returns false. The slice is reused between calls.
func Solutions(n int, yield func([]int) bool) {
	Completions(n, nil, yield)
}

// Completions is like [Solutions] for the solutions whose first rows hold
// the queens in prefix.
func Completions(n int, prefix []int, yield func([]int) bool) {
	cols := make([]int, 0, n)
	for _, c := range prefix {
		if c < 0 || c >= n || !safe(cols, c) {
			return
		}
		cols = append(cols, c)
	}
	var rec func() bool
	rec = func() bool {
		if len(cols) == n {
			return yield(cols)
		}
		for c := 0; c < n; c++ {
			if safe(cols, c) {
				cols = append(cols, c)
				if !rec() {
					return false
				}
				cols = cols[:len(cols)-1]
			}
		}
		return true
	}
	rec()
}

// safe reports whether a queen in the next row, column c, is attacked by
// none of the queens in cols.
func safe(cols []int, c int) bool {
	r := len(cols)
	for pr, pc := range cols {
		if pc == c || r-pr == c-pc || r-pr == pc-c {
			return false
		}
	}
	return true
}

// Count returns the number of solutions of the n×n board.
func Count(n int) uint64 {
	return CountPrefix(n, nil)
}

// CountPrefix returns the number of solutions whose first rows hold prefix.
func CountPrefix(n int, prefix []int) uint64 {
	var k uint64
	Completions(n, prefix, func([]int) bool { k++; return true })
	return k
}

// Classes counts solutions up to the 8 symmetries of the square by listing
// every solution, building all 8 images and keeping the smallest as the
// class's name. It returns the number of solutions, of classes, and of
// solutions equal to their 180° and to their 90° rotation.
func Classes(n int) (total, unique, point, rot90 uint64) {
	seen := map[string]bool{}
	Solutions(n, func(p []int) bool {
		total++
		imgs := Images(p)
		if slices.Equal(imgs[2], p) {
			point++
		}
		if slices.Equal(imgs[1], p) {
			rot90++
		}
		least := p
		for _, im := range imgs {
			if slices.Compare(im, least) < 0 {
				least = im
			}
		}
		seen[key(least)] = true
		return true
	})
	return total, uint64(len(seen)), point, rot90
}

// Images returns the 8 images of a board given as the column of each row's
// queen: [identity, rot90, rot180, rot270, and the four reflections]. Each is
// built by moving every square (r, c) explicitly.
func Images(p []int) [8][]int {
	n := len(p)
	maps := [8]func(r, c int) (int, int){
		func(r, c int) (int, int) { return r, c },
		func(r, c int) (int, int) { return c, n - 1 - r },         // 90° clockwise
		func(r, c int) (int, int) { return n - 1 - r, n - 1 - c }, // 180°
		func(r, c int) (int, int) { return n - 1 - c, r },         // 270° clockwise
		func(r, c int) (int, int) { return r, n - 1 - c },         // left-right
		func(r, c int) (int, int) { return n - 1 - r, c },         // up-down
		func(r, c int) (int, int) { return c, r },                 // transpose
		func(r, c int) (int, int) { return n - 1 - c, n - 1 - r }, // anti-transpose
	}
	var out [8][]int
	for i, f := range maps {
		img := make([]int, n)
		for r, c := range p {
			nr, nc := f(r, c)
			img[nr] = nc
		}
		out[i] = img
	}
	return out
}

func key(p []int) string {
	b := make([]byte, len(p))
	for i, c := range p {
		b[i] = byte(c)
	}
	return string(b)
}
