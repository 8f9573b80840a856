// Package version holds the version of nqueens that journals and shard
// files record and the command prints; release builds may set it with
// -ldflags "-X github.com/nqueens/nqueens/internal/version.Version=…".
package version

import "runtime/debug"

// Version is the version of this module's code.
var Version = "0.3.0"

// Commit is the VCS revision the binary was built from, its first 7
// digits, with "+changes" where the tree had changes not committed; ""
// where Go recorded none (a build outside a repository, or -buildvcs=false).
func Commit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev != "" && dirty {
		rev += "+changes"
	}
	return rev
}
