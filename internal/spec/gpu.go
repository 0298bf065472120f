package spec

import (
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/gpu"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// gpu checks gpu.product against slogen's catalog and fills in the memory
// of a known product. An unknown product needs memory_mib: a warning says
// the catalog cannot vouch for it; without memory_mib it is an error,
// because nothing could then tell how full the GPU is.
func (r *resolver) gpu(raw *rawGPU) model.GPU {
	if raw == nil {
		return model.GPU{}
	}
	g := model.GPU{Product: raw.Product, Count: raw.Count, MemoryMiB: raw.MemoryMiB}
	if raw.Product == "" {
		return g
	}
	p, known := gpu.Lookup(raw.Product)
	switch {
	case known && raw.MemoryMiB == 0:
		g.MemoryMiB = p.MemoryMiB
	case known && raw.MemoryMiB > p.MemoryMiB:
		r.warnf(fields("gpu", "memory_mib"), "%d MiB is more than a %s has (%d MiB); drop memory_mib to use the catalog's value", raw.MemoryMiB, p.Name, p.MemoryMiB)
	case !known && raw.MemoryMiB > 0:
		r.warnf(fields("gpu", "product"), "%q is not in slogen's GPU catalog; using memory_mib %d as given (known products nearest to it: %s)",
			raw.Product, raw.MemoryMiB, strings.Join(gpu.Nearest(raw.Product, 3), ", "))
	case !known:
		r.errorf(fields("gpu", "product"), "%q is not in slogen's GPU catalog: use a known NVML name (nearest: %s), or set memory_mib to the GPU's memory.total from nvidia-smi (slogen discover prints both)",
			raw.Product, strings.Join(gpu.Nearest(raw.Product, 3), ", "))
	}
	if known {
		g.Product = p.Name // the catalog's spelling, whichever form the spec used
	}
	return g
}

// preallocation says how the runtime claims a fixed share of every GPU's
// memory at start (vLLM claims --gpu-memory-utilization (0.9 by
// default)); ok is false for a runtime that claims none.
func preallocation(runtime string) (claim string, ok bool) {
	p, _ := profile.Lookup(runtime)
	if p.Preallocation == "" {
		return "", false
	}
	return p.Title + " claims " + p.Preallocation, true
}

// Default VRAM thresholds: above the share a preallocating runtime claims
// at start, where only growth beyond it (the CUDA graphs, another
// process) can bring an OOM; 90 % elsewhere.
const (
	defaultVRAMPercent      = 90
	preallocatedVRAMPercent = 95
)

// vramPercent is the spec's VRAM threshold, or the runtime's default.
func vramPercent(runtime string, t model.Thresholds) float64 {
	switch _, prealloc := preallocation(runtime); {
	case t.VRAMPercent != 0:
		return t.VRAMPercent
	case prealloc:
		return preallocatedVRAMPercent
	}
	return defaultVRAMPercent
}

// warnPreallocation warns when the VRAM alert would fire on a healthy
// server: the runtime's own share of memory already reaches the threshold.
func (r *resolver) warnPreallocation(runtime string, t model.Thresholds) {
	if claim, ok := preallocation(runtime); ok && t.VRAMPercent < preallocatedVRAMPercent {
		r.warnf(fields("thresholds", "vram_percent"), "%s of every GPU's memory at start, so GPU memory reads about 90%% on a healthy server and GPUMemoryHigh at %s%% would fire all the time: set vram_percent above the runtime's share (e.g. 95); KVCacheHigh watches the memory inside it",
			claim, strconv.FormatFloat(t.VRAMPercent, 'f', -1, 64))
	}
}
