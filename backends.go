package nqueens

// The device back ends this library is built with. Each registers
// itself with internal/backend's registry when imported, under the name
// device specs give its devices (WithDevice); the library and the command
// find them there alone, so that a back end is one folder and one line
// here (docs/design.md, "Devices").
import (
	_ "github.com/nqueens/nqueens/internal/opencl" // "opencl"
)
