package opencl

import (
	"fmt"

	"github.com/nqueens/nqueens/internal/backend"
)

// The OpenCL back end registers itself as "opencl": its devices are
// [Devices], in the runtime's order.
func init() {
	backend.Register(backend.Kind{
		Name:     "opencl",
		Devices:  listed,
		Open:     opened,
		NoDevice: "the OpenCL runtime has no device: is a driver such as pocl-opencl-icd installed?",
	})
}

// listed is [Devices] as the registry lists them, each with its Info as
// the detail.
func listed() ([]backend.Info, error) {
	infos, err := Devices()
	if err != nil {
		return nil, err
	}
	out := make([]backend.Info, 0, len(infos))
	for _, i := range infos {
		out = append(out, backend.Info{Kind: "opencl", Index: i.Index, Name: i.String(), Type: string(i.Type), Vendor: i.Vendor,
			ComputeUnits: i.ComputeUnits, ClockMHz: i.ClockMHz, Memory: i.Memory, Version: i.DeviceVersion, Driver: i.Driver,
			Platform: i.Platform, Detail: i})
	}
	return out, nil
}

// opened opens a device listed.
func opened(info backend.Info) (backend.Opened, error) {
	i, ok := info.Detail.(Info)
	if !ok {
		return nil, fmt.Errorf("%s is not an OpenCL device as the runtime listed it", info.Spec())
	}
	return Open(i)
}
