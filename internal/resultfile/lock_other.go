//go:build !unix && !windows

package resultfile

import "os"

// Lock does nothing where the system has no file locks this package uses.
func Lock(*os.File) error { return nil }

func lockAs(*os.File, string) error { return nil }

const oNoFollow = 0
