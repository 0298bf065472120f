// Package discover reads a host's NVIDIA GPUs through NVML and turns
// them into a spec's gpu block, printed or written into a spec file.
//
// Only nvml.go talks to NVML, and only in a build with the nvml tag and
// cgo (go build -tags nvml). go-nvml's cgo prints some 170 lines of C
// deprecation warnings when it compiles, which would greet every
// newcomer's first go run and fill every CI log; without the tag Read
// reports ErrNoNVML, and everything else here (and in slogen) builds as
// usual.
package discover

import (
	"errors"
	"fmt"
)

// Host is what NVML says about a machine.
type Host struct {
	Hostname      string
	DriverVersion string
	CUDAVersion   string // the highest CUDA version the driver supports
	GPUs          []GPU
}

// GPU is one physical GPU.
type GPU struct {
	Index             int
	Name              string // NVML product name
	UUID              string
	MemoryMiB         int
	ComputeCapability string // "9.0"; empty when NVML could not say
	MIG               *MIG   // nil when the GPU has no MIG mode
}

// MIG is a GPU's MIG mode and its GPU instances.
type MIG struct {
	Enabled   bool // current mode
	Pending   bool // mode after the next GPU reset
	Instances []Instance
}

// Instance is one MIG GPU instance.
type Instance struct {
	ID               int
	Slices           int
	MemoryMiB        int
	ComputeInstances int
}

// Errors Read reports when there is nothing to read.
var (
	ErrNoNVML    = errors.New("this slogen was built without NVML: build it with go install -tags nvml ./cmd/slogen (cgo and a C compiler; CGO_CFLAGS=-Wno-deprecated-declarations quiets go-nvml's C warnings)")
	ErrNoLibrary = errors.New("cannot load libnvidia-ml.so.1, the NVIDIA driver's management library (NVML): install the NVIDIA driver, or in a container run with the NVIDIA container toolkit (e.g. docker run --gpus all) so that the library is mounted")
	ErrNoDriver  = errors.New("the NVIDIA kernel driver is not loaded (nvidia-smi fails too): load the nvidia module or reboot into the driver")
	ErrNoGPU     = errors.New("NVML found no NVIDIA GPU on this host")
)

// CUDAVersion writes NVML's CUDA driver version (12040) as 12.4.
func CUDAVersion(v int) string {
	return fmt.Sprintf("%d.%d", v/1000, v%1000/10)
}
