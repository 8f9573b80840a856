// Package version holds the version of nqueens that journals and shard
// files record and the command prints; release builds may set it with
// -ldflags "-X github.com/nqueens/nqueens/internal/version.Version=…".
package version

// Version is the version of this module's code.
var Version = "0.3.0"
