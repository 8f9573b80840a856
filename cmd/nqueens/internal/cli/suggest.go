package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// synonyms are the names other tools give to nqueens's flags, which a
// typo's distance would not find (--threads is far from --workers).
var synonyms = map[string]string{
	"threads": "workers", "thread": "workers", "jobs": "workers", "cores": "workers", "procs": "workers",
	"parallel": "workers", "parallelism": "workers", "cpus": "workers", "nproc": "workers",
	"resume": "checkpoint", "journal": "checkpoint", "output": "out", "mem": "memory",
	"algorithm": "method", "algo": "method", "gpu": "device",
}

// Suggest returns the flag of cmd that an unknown one was most likely
// meant to be ("--workers" for --threads or --wrokers), or "".
func Suggest(cmd *cobra.Command, unknown string) string {
	if cmd == nil {
		return ""
	}
	name := strings.TrimLeft(unknown, "-")
	if i := strings.IndexByte(name, '='); i >= 0 {
		name = name[:i]
	}
	key := strings.ToLower(name)
	if _, ok := synonyms[key]; !ok {
		var keys []string
		for k := range synonyms {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		key = nearest(key, keys) // --treads, a typo of a synonym
	}
	if s, ok := synonyms[key]; ok && cmd.Flags().Lookup(s) != nil {
		return "--" + s
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if best := nearest(name, names); best != "" {
		return "--" + best
	}
	return ""
}

// SuggestCommand returns the command of root that an unknown one was most
// likely meant to be, or "".
func SuggestCommand(root *cobra.Command, unknown string) string {
	var names []string
	for _, c := range root.Commands() {
		if !c.Hidden {
			names = append(names, c.Name())
			names = append(names, c.Aliases...)
		}
	}
	return nearest(unknown, names)
}

// nearest is the name closest to s by edit distance (a swap of two
// neighbours counting one), if it is close enough to be a typo: at most
// one edit in four letters, two at most; a name that s begins, or that
// begins with s, counts too.
func nearest(s string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		d := distance(strings.ToLower(s), n)
		if len(s) >= 3 && (strings.HasPrefix(n, s) || strings.HasPrefix(s, n)) && len(n) >= 3 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = n, d
		}
	}
	if bestD <= min(2, max(1, len(s)/4)) {
		return best
	}
	return ""
}

// distance is the optimal string alignment distance of a and b: insertions,
// deletions, substitutions and swaps of neighbours, each one edit.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
