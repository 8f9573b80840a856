package opencl

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"unsafe"
)

// Built programs are kept in a cache, so that a count's start does not
// compile them again (seconds a program on a GPU's driver): a file a
// program, named by a hash of what the binary depends on (the platform,
// the device, its driver and version, the build options and the source),
// in NQUEENS_OPENCL_CACHE's folder, else nqueens/opencl under the user's
// cache folder (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux);
// NQUEENS_OPENCL_CACHE=off keeps none. A file holds a header, the
// binary's length and its CRC-32C, then the binary the runtime gave
// (clGetProgramInfo); one that is damaged, or whose binary the runtime
// refuses, is built again from source and written anew. Where
// NQUEENS_OPENCL_BUILD_LOG asks for the compiler's log, programs are
// compiled (and the cache written) whatever it holds.

// cacheMagic begins every file of the cache.
const cacheMagic = "nqueens opencl program 1\n"

// The clGetProgramInfo parameters of a program's binary.
const (
	clProgramBinarySizes = 0x1165
	clProgramBinaries    = 0x1166
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// cacheFolder is where built programs are kept under the settings
// (NQUEENS_OPENCL_CACHE), or "" for none.
func cacheFolder(env string) string {
	switch env {
	case "off":
		return ""
	case "":
		dir, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(dir, "nqueens", "opencl")
	}
	return env
}

// cachePath is the file of the program built from src with opts on c's device.
func (c *core) cachePath(src, opts string) string {
	if c.env.cache == "" {
		return ""
	}
	h := sha256.New()
	for _, s := range []string{c.info.Platform, c.info.PlatformVer, c.info.Name, c.info.Vendor, c.info.Driver, c.info.DeviceVersion, opts, src} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return filepath.Join(c.env.cache, hex.EncodeToString(h.Sum(nil)[:16])+".bin")
}

// readCached returns the binary kept at path, or nil where there is none
// or it is damaged (a wrong header, length or checksum).
func readCached(path string) []byte {
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil || !bytes.HasPrefix(b, []byte(cacheMagic)) || len(b) < len(cacheMagic)+12 {
		return nil
	}
	b = b[len(cacheMagic):]
	n, sum := binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint32(b[8:])
	bin := b[12:]
	if uint64(len(bin)) != n || crc32.Checksum(bin, castagnoli) != sum || n == 0 {
		return nil
	}
	return bin
}

// writeCached keeps bin at path, through a temporary file renamed into
// place (best effort: a cache that cannot be written is a slower start,
// not a failure).
func writeCached(path string, bin []byte) {
	if path == "" || len(bin) == 0 {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".program-*")
	if err != nil {
		return
	}
	head := make([]byte, 12)
	binary.LittleEndian.PutUint64(head, uint64(len(bin)))
	binary.LittleEndian.PutUint32(head[8:], crc32.Checksum(bin, castagnoli))
	_, err = f.Write(append(append([]byte(cacheMagic), head...), bin...))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || os.Rename(f.Name(), path) != nil {
		os.Remove(f.Name())
	}
}

// programBinary is the binary of a program built for the device alone,
// or nil where the runtime gives none.
func programBinary(program clProgram) []byte {
	var size uintptr
	if cl.getProgramInfo(program, clProgramBinarySizes, unsafe.Sizeof(size), unsafe.Pointer(&size), nil) != clSuccess || size == 0 {
		return nil
	}
	bin := make([]byte, size)
	ptr := &bin[0]
	if cl.getProgramInfo(program, clProgramBinaries, unsafe.Sizeof(ptr), unsafe.Pointer(&ptr), nil) != clSuccess {
		return nil
	}
	runtime.KeepAlive(ptr)
	return bin
}

// fromBinary creates the program from a binary the cache kept, or 0
// where the runtime refuses it.
func (c *core) fromBinary(bin []byte) clProgram {
	id := c.info.id
	length := uintptr(len(bin))
	ptr := &bin[0]
	var status, code int32
	program := cl.createProgramWithBinary(c.ctx, 1, &id, &length, &ptr, &status, &code)
	runtime.KeepAlive(bin)
	if code != clSuccess || status != clSuccess {
		if program != 0 {
			cl.releaseProgram(program)
		}
		return 0
	}
	return program
}
