//go:build nvml && cgo

package discover

import (
	"fmt"
	"os"
	"slices"

	"github.com/NVIDIA/go-nvml/pkg/nvml"
)

// Read reads this host's GPUs through the NVIDIA driver. Warnings name
// what could not be read but did not stop it.
func Read() (Host, []string, error) { return read(nvml.New()) }

// read calls NVML only after a successful Init: any call before it makes
// the process die in the dynamic loader, beyond recovery.
func read(lib nvml.Interface) (h Host, warnings []string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading NVML failed unexpectedly: %v", r)
		}
	}()
	if ret := lib.Init(); ret != nvml.SUCCESS {
		return Host{}, nil, initError(ret)
	}
	defer lib.Shutdown()
	h.Hostname, _ = os.Hostname()
	if v, ret := lib.SystemGetDriverVersion(); ret == nvml.SUCCESS {
		h.DriverVersion = v
	} else {
		warnings = append(warnings, "driver version: "+ret.Error())
	}
	if v, ret := lib.SystemGetCudaDriverVersion(); ret == nvml.SUCCESS {
		h.CUDAVersion = CUDAVersion(v)
	} else {
		warnings = append(warnings, "CUDA version: "+ret.Error())
	}
	n, ret := lib.DeviceGetCount()
	if ret != nvml.SUCCESS {
		return Host{}, warnings, fmt.Errorf("counting GPUs: %w", ret)
	}
	if n == 0 {
		return Host{}, warnings, fmt.Errorf("%w (driver %s)", ErrNoGPU, h.DriverVersion)
	}
	for i := range n {
		g, ws, err := readGPU(lib, i)
		warnings = append(warnings, ws...)
		if err != nil {
			return Host{}, warnings, err
		}
		h.GPUs = append(h.GPUs, g)
	}
	return h, warnings, nil
}

func initError(ret nvml.Return) error {
	switch ret {
	case nvml.ERROR_LIBRARY_NOT_FOUND:
		return ErrNoLibrary
	case nvml.ERROR_DRIVER_NOT_LOADED:
		return ErrNoDriver
	case nvml.ERROR_NO_PERMISSION:
		return fmt.Errorf("no permission to use the NVIDIA driver (/dev/nvidiactl and /dev/nvidia*): %w", ret)
	}
	return fmt.Errorf("initialising NVML: %w", ret)
}

// readGPU reads one GPU; its name, UUID and memory are required.
func readGPU(lib nvml.Interface, i int) (GPU, []string, error) {
	g := GPU{Index: i}
	d, ret := lib.DeviceGetHandleByIndex(i)
	if ret != nvml.SUCCESS {
		return g, nil, fmt.Errorf("GPU %d: %w", i, ret)
	}
	if g.Name, ret = d.GetName(); ret != nvml.SUCCESS {
		return g, nil, fmt.Errorf("GPU %d: name: %w", i, ret)
	}
	if g.UUID, ret = d.GetUUID(); ret != nvml.SUCCESS {
		return g, nil, fmt.Errorf("GPU %d: UUID: %w", i, ret)
	}
	mem, ret := d.GetMemoryInfo()
	if ret != nvml.SUCCESS {
		return g, nil, fmt.Errorf("GPU %d: memory: %w", i, ret)
	}
	g.MemoryMiB = int(mem.Total >> 20)
	var warnings []string
	if major, minor, ret := d.GetCudaComputeCapability(); ret == nvml.SUCCESS {
		g.ComputeCapability = fmt.Sprintf("%d.%d", major, minor)
	} else {
		warnings = append(warnings, fmt.Sprintf("GPU %d: compute capability: %v", i, ret))
	}
	mig, err := readMIG(d)
	if err != nil {
		warnings = append(warnings, fmt.Sprintf("GPU %d: MIG: %v", i, err))
	}
	g.MIG = mig
	return g, warnings, nil
}

// readMIG reads the MIG mode and, when it is on, the GPU instances of
// every profile. A GPU without MIG has no MIG mode at all.
func readMIG(d nvml.Device) (*MIG, error) {
	current, pending, ret := d.GetMigMode()
	switch ret {
	case nvml.SUCCESS:
	case nvml.ERROR_NOT_SUPPORTED:
		return nil, nil
	default:
		return nil, ret
	}
	m := &MIG{Enabled: current == nvml.DEVICE_MIG_ENABLE, Pending: pending == nvml.DEVICE_MIG_ENABLE}
	if !m.Enabled {
		return m, nil
	}
	for p := range nvml.GPU_INSTANCE_PROFILE_COUNT {
		info, ret := d.GetGpuInstanceProfileInfo(p)
		if ret != nvml.SUCCESS {
			continue // a profile this GPU does not offer
		}
		gis, ret := d.GetGpuInstances(&info)
		if ret != nvml.SUCCESS {
			return m, fmt.Errorf("instances of profile %d: %w", p, ret)
		}
		for _, gi := range gis {
			in, err := readInstance(gi, info)
			if err != nil {
				return m, err
			}
			m.Instances = append(m.Instances, in)
		}
	}
	slices.SortFunc(m.Instances, func(a, b Instance) int { return a.ID - b.ID })
	return m, nil
}

func readInstance(gi nvml.GpuInstance, profile nvml.GpuInstanceProfileInfo) (Instance, error) {
	info, ret := gi.GetInfo()
	if ret != nvml.SUCCESS {
		return Instance{}, fmt.Errorf("GPU instance: %w", ret)
	}
	in := Instance{ID: int(info.Id), Slices: int(profile.SliceCount), MemoryMiB: int(profile.MemorySizeMB)}
	for p := range nvml.COMPUTE_INSTANCE_PROFILE_COUNT {
		ci, ret := gi.GetComputeInstanceProfileInfo(p, nvml.COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED)
		if ret != nvml.SUCCESS {
			continue
		}
		cis, ret := gi.GetComputeInstances(&ci)
		if ret != nvml.SUCCESS {
			return in, fmt.Errorf("compute instances of GPU instance %d: %w", in.ID, ret)
		}
		in.ComputeInstances += len(cis)
	}
	return in, nil
}
