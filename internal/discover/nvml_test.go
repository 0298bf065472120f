//go:build nvml && cgo

package discover

import (
	"errors"
	"testing"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxa100"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh100"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/dgxh200"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/gpus"
	"github.com/NVIDIA/go-nvml/pkg/nvml/mock/server"
)

func TestReadMockServers(t *testing.T) {
	tests := map[string]struct {
		lib          nvml.Interface
		name         string
		memMiB       int
		capability   string
		migSupported bool
	}{
		"A DGX A100 has eight A100s.": {dgxa100.New(), "Mock NVIDIA A100-SXM4-40GB", 40960, "8.0", true},
		"A DGX H100 has eight H100s.": {dgxh100.New(), "NVIDIA H100 80GB HBM3", 81920, "9.0", true},
		"A DGX H200 has eight H200s.": {dgxh200.New(), "NVIDIA H200 141GB HBM3e", 144384, "9.0", true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, warnings, err := read(tc.lib)
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) > 0 {
				t.Errorf("warnings: %v", warnings)
			}
			if h.DriverVersion != "550.54.15" || h.CUDAVersion != "12.4" || len(h.GPUs) != 8 {
				t.Fatalf("driver %q, CUDA %q, %d GPUs", h.DriverVersion, h.CUDAVersion, len(h.GPUs))
			}
			for i, g := range h.GPUs {
				if g.Index != i || g.Name != tc.name || g.MemoryMiB != tc.memMiB || g.ComputeCapability != tc.capability || g.UUID == "" {
					t.Errorf("GPU %d: %+v", i, g)
				}
				if g.MIG == nil || g.MIG.Enabled {
					t.Errorf("GPU %d: MIG %+v; want supported and off", i, g.MIG)
				}
			}
		})
	}
}

// TestReadMIG: a GPU in MIG mode lists its GPU instances and their
// compute instances, in ID order.
func TestReadMIG(t *testing.T) {
	s := dgxa100.New()
	d := s.Devices[0].(*server.Device)
	if ret, _ := d.SetMigMode(nvml.DEVICE_MIG_ENABLE); ret != nvml.SUCCESS {
		t.Fatal(ret)
	}
	for _, p := range []int{nvml.GPU_INSTANCE_PROFILE_3_SLICE, nvml.GPU_INSTANCE_PROFILE_1_SLICE, nvml.GPU_INSTANCE_PROFILE_1_SLICE} {
		info, ret := d.GetGpuInstanceProfileInfo(p)
		if ret != nvml.SUCCESS {
			t.Fatal(ret)
		}
		gi, ret := d.CreateGpuInstance(&info)
		if ret != nvml.SUCCESS {
			t.Fatal(ret)
		}
		ci, ret := gi.GetComputeInstanceProfileInfo(nvml.COMPUTE_INSTANCE_PROFILE_1_SLICE, nvml.COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)
		if ret != nvml.SUCCESS {
			t.Fatal(ret)
		}
		if _, ret := gi.CreateComputeInstance(&ci); ret != nvml.SUCCESS {
			t.Fatal(ret)
		}
	}
	h, _, err := read(s)
	if err != nil {
		t.Fatal(err)
	}
	m := h.GPUs[0].MIG
	if m == nil || !m.Enabled || len(m.Instances) != 3 {
		t.Fatalf("MIG = %+v; want enabled with 3 instances", m)
	}
	want := []Instance{{ID: 0, Slices: 3, MemoryMiB: 19968, ComputeInstances: 1}, {ID: 1, Slices: 1, MemoryMiB: 4864, ComputeInstances: 1}, {ID: 2, Slices: 1, MemoryMiB: 4864, ComputeInstances: 1}}
	for i, in := range m.Instances {
		if in != want[i] {
			t.Errorf("instance %d = %+v; want %+v", i, in, want[i])
		}
	}
	if h.GPUs[1].MIG.Enabled {
		t.Error("GPU 1 reports MIG on")
	}
}

// TestReadWithoutLibrary: when NVML cannot be loaded, Init fails and
// nothing else is called; the hand-rolled mock panics on any other call.
func TestReadWithoutLibrary(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_LIBRARY_NOT_FOUND }}
	_, _, err := read(lib)
	if !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("err = %v; want ErrNoLibrary", err)
	}
	if len(lib.ShutdownCalls()) != 0 || len(lib.DeviceGetCountCalls()) != 0 {
		t.Error("NVML was used after a failed Init")
	}
}

// TestReadRealLibraryMissing loads a library that is not there through
// the real binding: Init must fail cleanly rather than kill the process.
func TestReadRealLibraryMissing(t *testing.T) {
	_, _, err := read(nvml.New(nvml.WithLibraryPath("/nonexistent/libnvidia-ml.so.1")))
	if !errors.Is(err, ErrNoLibrary) {
		t.Fatalf("err = %v; want ErrNoLibrary", err)
	}
}

func TestReadNoGPU(t *testing.T) {
	lib := &mock.Interface{
		InitFunc:                       func() nvml.Return { return nvml.SUCCESS },
		ShutdownFunc:                   func() nvml.Return { return nvml.SUCCESS },
		SystemGetDriverVersionFunc:     func() (string, nvml.Return) { return "550.54.15", nvml.SUCCESS },
		SystemGetCudaDriverVersionFunc: func() (int, nvml.Return) { return 12040, nvml.SUCCESS },
		DeviceGetCountFunc:             func() (int, nvml.Return) { return 0, nvml.SUCCESS },
	}
	_, _, err := read(lib)
	if !errors.Is(err, ErrNoGPU) {
		t.Fatalf("err = %v; want ErrNoGPU", err)
	}
	if len(lib.ShutdownCalls()) != 1 {
		t.Error("NVML was not shut down")
	}
}

func TestReadDriverNotLoaded(t *testing.T) {
	lib := &mock.Interface{InitFunc: func() nvml.Return { return nvml.ERROR_DRIVER_NOT_LOADED }}
	if _, _, err := read(lib); !errors.Is(err, ErrNoDriver) {
		t.Fatalf("err = %v; want ErrNoDriver", err)
	}
}

// TestMixedHost: the block describes the most common model and warns.
func TestMixedHost(t *testing.T) {
	s, err := server.New(server.WithGPUs(gpus.H100_SXM5_80GB, gpus.A100_SXM4_80GB, gpus.H100_SXM5_80GB),
		server.WithDriverVersion("550.54.15"), server.WithCUDADriverVersion(12040))
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := read(s)
	if err != nil {
		t.Fatal(err)
	}
	b, warnings := NewBlock(h)
	if b.Product != "NVIDIA H100 80GB HBM3" || b.Count != 2 || len(b.Discovered.Devices) != 3 || len(warnings) != 1 {
		t.Fatalf("block %+v, warnings %v", b, warnings)
	}
}
