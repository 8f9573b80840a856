// Package opencl counts on OpenCL devices: GPUs of every vendor, and CPU
// runtimes such as pocl. The OpenCL runtime (the ICD loader,
// libOpenCL.so.1) is loaded when a device is first asked for, with purego
// and no cgo, so the binary builds with CGO_ENABLED=0 and runs where no
// OpenCL exists; the binding is the twenty-odd calls a count needs. A
// [Device] is a back end (internal/backend) of both kinds: a Searcher,
// which runs the backtracking kernels (search.cl, walk and the banned
// search, the CPU's own) over a batch of starts, and a Joiner, which runs
// the join's kernels (join.cl: the listing of the half-boards from the
// quarter lists, their sort into the sieve's buckets, and the matching of
// each block's table against the other side's buckets) over a batch of
// join tasks, several batches queued at once. [Devices] lists the
// platforms' devices.
package opencl

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"github.com/ebitengine/purego"
)

// ErrNoRuntime is returned when no OpenCL runtime can be loaded.
var ErrNoRuntime = errors.New("no OpenCL runtime found")

// The OpenCL types this binding uses: handles are pointers, cl_int and
// cl_uint 32 bits, cl_bitfield 64 bits, size_t a uintptr.
type (
	platformID uintptr
	deviceID   uintptr
	clContext  uintptr
	clQueue    uintptr
	clProgram  uintptr
	clKernel   uintptr
	clMem      uintptr
	clEvent    uintptr
)

// Constants of cl.h.
const (
	clSuccess               = 0
	clDeviceNotFound        = -1
	clPlatformNotFoundKHR   = -1001 // the ICD loader found no platform
	clPlatformName          = 0x0902
	clPlatformVendor        = 0x0903
	clPlatformVersion       = 0x0901
	clDeviceTypeAll         = 0xFFFFFFFF
	clDeviceType            = 0x1000
	clDeviceMaxComputeUnits = 0x1002
	clDeviceMaxClock        = 0x100C
	clDeviceGlobalMemSize   = 0x101F
	clDeviceMaxMemAlloc     = 0x1010
	clDeviceLocalMemSize    = 0x1023
	clDeviceMaxWorkGroup    = 0x1004
	clDeviceName            = 0x102B
	clDeviceVendor          = 0x102C
	clDriverVersion         = 0x102D
	clDeviceVersion         = 0x102F
	clMemReadOnly           = 1 << 2
	clMemWriteOnly          = 1 << 1
	clMemReadWrite          = 1 << 0
	clMemAllocHostPtr       = 1 << 4
	clMapWrite              = 1 << 1
	clProgramBuildLog       = 0x1183
	clDeviceTypeCPU         = 1 << 1
	clDeviceTypeGPU         = 1 << 2
	clQueueProfiling        = 1 << 1
	clProfilingStart        = 0x1282
	clProfilingEnd          = 0x1283
)

// cl holds the runtime's functions once loaded.
var cl struct {
	once sync.Once
	err  error

	getPlatformIDs          func(n uint32, platforms *platformID, count *uint32) int32
	getPlatformInfo         func(p platformID, param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32
	getDeviceIDs            func(p platformID, kind uint64, n uint32, devices *deviceID, count *uint32) int32
	getDeviceInfo           func(d deviceID, param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32
	createContext           func(props unsafe.Pointer, n uint32, devices *deviceID, notify uintptr, user uintptr, errcode *int32) clContext
	createCommandQueue      func(c clContext, d deviceID, props uint64, errcode *int32) clQueue
	createProgram           func(c clContext, n uint32, sources **byte, lengths *uintptr, errcode *int32) clProgram
	createProgramWithBinary func(c clContext, n uint32, devices *deviceID, lengths *uintptr, binaries **byte, status *int32, errcode *int32) clProgram
	getProgramInfo          func(p clProgram, param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32
	buildProgram            func(p clProgram, n uint32, devices *deviceID, options *byte, notify uintptr, user uintptr) int32
	getProgramBuildInfo     func(p clProgram, d deviceID, param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32
	createKernel            func(p clProgram, name *byte, errcode *int32) clKernel
	setKernelArg            func(k clKernel, index uint32, size uintptr, value unsafe.Pointer) int32
	createBuffer            func(c clContext, flags uint64, size uintptr, host unsafe.Pointer, errcode *int32) clMem
	enqueueWriteBuffer      func(q clQueue, m clMem, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, nEvents uint32, events, event uintptr) int32
	enqueueReadBuffer       func(q clQueue, m clMem, blocking uint32, offset, size uintptr, ptr unsafe.Pointer, nEvents uint32, events, event uintptr) int32
	enqueueCopyBuffer       func(q clQueue, src, dst clMem, srcOffset, dstOffset, size uintptr, nEvents uint32, events, event uintptr) int32
	enqueueNDRange          func(q clQueue, k clKernel, dims uint32, offset, global, local *uintptr, nEvents uint32, events, event uintptr) int32
	finish                  func(q clQueue) int32
	flush                   func(q clQueue) int32
	releaseMem              func(m clMem) int32
	releaseKernel           func(k clKernel) int32
	releaseProgram          func(p clProgram) int32
	releaseQueue            func(q clQueue) int32
	releaseContext          func(c clContext) int32
	profilingInfo           func(e clEvent, param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32
	releaseEvent            func(e clEvent) int32
	waitForEvents           func(n uint32, events *clEvent) int32
	enqueueMapBuffer        func(q clQueue, m clMem, blocking uint32, flags uint64, offset, size uintptr, nEvents uint32, events, event uintptr, errcode *int32) unsafe.Pointer
	enqueueUnmap            func(q clQueue, m clMem, ptr unsafe.Pointer, nEvents uint32, events, event uintptr) int32
}

// libraries are the names the ICD loader goes by; OPENCL_LIBRARY, if set,
// names the one to load instead (a loader copied along with the binary).
func libraries() []string {
	names := []string{"libOpenCL.so.1", "libOpenCL.so"}
	switch runtime.GOOS {
	case "darwin":
		names = []string{"/System/Library/Frameworks/OpenCL.framework/OpenCL"}
	case "windows":
		names = []string{"OpenCL.dll"}
	}
	if lib := os.Getenv("OPENCL_LIBRARY"); lib != "" {
		return []string{lib} // a loader copied along, and no other
	}
	return names
}

// runtimeMu serializes the calls that may start the OpenCL runtime,
// enumerate its devices, create a context or compile: an ICD loader
// (ocl-icd) loads its vendors lazily and unguarded, so that two
// goroutines' first calls crashed in clGetDeviceInfo or found no
// platform; and the signal actions [keepSignals] puts back are the
// process's, one set for every caller.
var runtimeMu sync.Mutex

// enter locks the runtime for a call that may start it or compile, and
// returns the function that puts the process's signals back and unlocks.
func enter() (leave func()) {
	runtimeMu.Lock()
	restore := keepSignals()
	return func() {
		restore()
		runtimeMu.Unlock()
	}
}

// load loads the runtime once.
func load() error {
	cl.once.Do(func() {
		var lib uintptr
		var tried []string
		for _, name := range libraries() {
			h, err := openLibrary(name)
			if err == nil {
				lib = h
				break
			}
			tried = append(tried, name)
		}
		if lib == 0 {
			cl.err = fmt.Errorf("%w (tried %s; on Debian: apt-get install ocl-icd-libopencl1 and a driver such as pocl-opencl-icd)", ErrNoRuntime, strings.Join(tried, ", "))
			return
		}
		defer func() {
			if r := recover(); r != nil {
				cl.err = fmt.Errorf("%w: the OpenCL library lacks a function: %v", ErrNoRuntime, r)
			}
		}()
		reg := func(fn any, name string) { purego.RegisterLibFunc(fn, lib, name) }
		reg(&cl.getPlatformIDs, "clGetPlatformIDs")
		reg(&cl.getPlatformInfo, "clGetPlatformInfo")
		reg(&cl.getDeviceIDs, "clGetDeviceIDs")
		reg(&cl.getDeviceInfo, "clGetDeviceInfo")
		reg(&cl.createContext, "clCreateContext")
		reg(&cl.createCommandQueue, "clCreateCommandQueue")
		reg(&cl.createProgram, "clCreateProgramWithSource")
		reg(&cl.createProgramWithBinary, "clCreateProgramWithBinary")
		reg(&cl.getProgramInfo, "clGetProgramInfo")
		reg(&cl.buildProgram, "clBuildProgram")
		reg(&cl.getProgramBuildInfo, "clGetProgramBuildInfo")
		reg(&cl.createKernel, "clCreateKernel")
		reg(&cl.setKernelArg, "clSetKernelArg")
		reg(&cl.createBuffer, "clCreateBuffer")
		reg(&cl.enqueueWriteBuffer, "clEnqueueWriteBuffer")
		reg(&cl.enqueueReadBuffer, "clEnqueueReadBuffer")
		reg(&cl.enqueueCopyBuffer, "clEnqueueCopyBuffer")
		reg(&cl.enqueueNDRange, "clEnqueueNDRangeKernel")
		reg(&cl.finish, "clFinish")
		reg(&cl.flush, "clFlush")
		reg(&cl.releaseMem, "clReleaseMemObject")
		reg(&cl.releaseKernel, "clReleaseKernel")
		reg(&cl.releaseProgram, "clReleaseProgram")
		reg(&cl.releaseQueue, "clReleaseCommandQueue")
		reg(&cl.releaseContext, "clReleaseContext")
		reg(&cl.profilingInfo, "clGetEventProfilingInfo")
		reg(&cl.releaseEvent, "clReleaseEvent")
		reg(&cl.waitForEvents, "clWaitForEvents")
		reg(&cl.enqueueMapBuffer, "clEnqueueMapBuffer")
		reg(&cl.enqueueUnmap, "clEnqueueUnmapMemObject")
	})
	return cl.err
}

// clError is an OpenCL call's error code.
type clError struct {
	call string
	code int32
}

func (e *clError) Error() string {
	name := errorNames[e.code]
	if name == "" {
		name = "error"
	}
	return fmt.Sprintf("%s: %s (%d)", e.call, name, e.code)
}

// errorNames are the codes a count may meet.
var errorNames = map[int32]string{
	-1: "CL_DEVICE_NOT_FOUND", -2: "CL_DEVICE_NOT_AVAILABLE", -3: "CL_COMPILER_NOT_AVAILABLE",
	-4: "CL_MEM_OBJECT_ALLOCATION_FAILURE", -5: "CL_OUT_OF_RESOURCES", -6: "CL_OUT_OF_HOST_MEMORY",
	-11: "CL_BUILD_PROGRAM_FAILURE", -30: "CL_INVALID_VALUE", -33: "CL_INVALID_DEVICE", -34: "CL_INVALID_CONTEXT",
	-36: "CL_INVALID_COMMAND_QUEUE", -38: "CL_INVALID_MEM_OBJECT", -44: "CL_INVALID_PROGRAM", -45: "CL_INVALID_PROGRAM_EXECUTABLE",
	-46: "CL_INVALID_KERNEL_NAME", -48: "CL_INVALID_KERNEL", -49: "CL_INVALID_ARG_INDEX", -50: "CL_INVALID_ARG_VALUE",
	-51: "CL_INVALID_ARG_SIZE", -52: "CL_INVALID_KERNEL_ARGS", -54: "CL_INVALID_WORK_GROUP_SIZE", -61: "CL_INVALID_BUFFER_SIZE",
	-1001: "CL_PLATFORM_NOT_FOUND_KHR",
}

// check turns a call's code into an error.
func check(call string, code int32) error {
	if code == clSuccess {
		return nil
	}
	return &clError{call, code}
}

// cString is s with a NUL, for the runtime.
func cString(s string) *byte {
	b := append([]byte(s), 0)
	return &b[0]
}

// infoString reads a string parameter with get (a clGet*Info call bound to
// its object).
func infoString(get func(param uint32, size uintptr, value unsafe.Pointer, sizeRet *uintptr) int32, param uint32) string {
	var size uintptr
	if get(param, 0, nil, &size) != clSuccess || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if get(param, size, unsafe.Pointer(&buf[0]), nil) != clSuccess {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(string(buf), "\x00"))
}
