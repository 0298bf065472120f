// Package gpu is slogen's catalog of data-center GPUs: the NVML product
// name, its memory as nvidia-smi reports it, its generation, and whether
// dcgm-exporter can read DCGM's profiling (DCGM_FI_PROF_*) fields on it.
// The values come from real nvidia-smi output (docs/metrics.md, "GPU
// memory as NVML reports it"), not vendor data sheets: NVML reports a little less than the
// marketing size, and the VRAM alerts and dashboards divide by this.
package gpu

import (
	"cmp"
	"github.com/slogen-dev/slogen/internal/suggest"
	"slices"
	"strings"
)

// Product is one GPU model.
type Product struct {
	// Name is the NVML name, as nvidia-smi and dcgm-exporter's modelName
	// label print it.
	Name string
	// MemoryMiB is nvidia-smi's memory.total.
	MemoryMiB int
	// Generation is the architecture: Turing, Ampere, Ada Lovelace,
	// Hopper or Blackwell.
	Generation string
	// ComputeCapability is CUDA's major.minor version of the chip.
	ComputeCapability string
	// Profiling reports whether DCGM's profiling fields (tensor core and
	// DRAM activity) work; DCGM supports them on data-center GPUs from
	// Volta on.
	Profiling bool
}

var catalog = []Product{
	{Name: "NVIDIA A100-SXM4-40GB", MemoryMiB: 40960, Generation: "Ampere", ComputeCapability: "8.0", Profiling: true},
	{Name: "NVIDIA A100-SXM4-80GB", MemoryMiB: 81920, Generation: "Ampere", ComputeCapability: "8.0", Profiling: true},
	{Name: "NVIDIA A100 80GB PCIe", MemoryMiB: 81920, Generation: "Ampere", ComputeCapability: "8.0", Profiling: true},
	{Name: "NVIDIA A10", MemoryMiB: 23028, Generation: "Ampere", ComputeCapability: "8.6", Profiling: true},
	{Name: "NVIDIA A10G", MemoryMiB: 23028, Generation: "Ampere", ComputeCapability: "8.6", Profiling: true},
	{Name: "NVIDIA H100 80GB HBM3", MemoryMiB: 81559, Generation: "Hopper", ComputeCapability: "9.0", Profiling: true},
	{Name: "NVIDIA H100 PCIe", MemoryMiB: 81559, Generation: "Hopper", ComputeCapability: "9.0", Profiling: true},
	{Name: "NVIDIA H100 NVL", MemoryMiB: 95830, Generation: "Hopper", ComputeCapability: "9.0", Profiling: true},
	{Name: "NVIDIA H200", MemoryMiB: 143771, Generation: "Hopper", ComputeCapability: "9.0", Profiling: true},
	{Name: "NVIDIA B200", MemoryMiB: 183359, Generation: "Blackwell", ComputeCapability: "10.0", Profiling: true},
	{Name: "NVIDIA L4", MemoryMiB: 23034, Generation: "Ada Lovelace", ComputeCapability: "8.9", Profiling: true},
	{Name: "NVIDIA L40S", MemoryMiB: 46068, Generation: "Ada Lovelace", ComputeCapability: "8.9", Profiling: true},
	{Name: "Tesla T4", MemoryMiB: 15360, Generation: "Turing", ComputeCapability: "7.5", Profiling: true},
}

// Lookup finds a product by its NVML name or its GPU Feature Discovery
// label, ignoring case, so that "NVIDIA-H100-80GB-HBM3" (read off a node)
// finds "NVIDIA H100 80GB HBM3".
func Lookup(name string) (Product, bool) {
	key := normal(name)
	for _, p := range catalog {
		if normal(p.Name) == key {
			return p, true
		}
	}
	return Product{}, false
}

// Nearest names the n catalog products closest to name, closest first,
// for "did you mean" messages. Products whose name contains it come
// first: "NVIDIA H100" means one of the H100s more likely than an H200.
func Nearest(name string, n int) []string {
	type scored struct {
		name string
		d    int
	}
	key := normal(name)
	all := make([]scored, len(catalog))
	for i, p := range catalog {
		d := suggest.Distance(key, normal(p.Name))
		if strings.Contains(normal(p.Name), key) {
			d -= 100
		}
		all[i] = scored{p.Name, d}
	}
	slices.SortFunc(all, func(a, b scored) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.name, b.name)) })
	out := make([]string, 0, n)
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.name)
	}
	return out
}

// normal folds the differences between an NVML name and its node label.
func normal(s string) string {
	return strings.ToLower(strings.ReplaceAll(label(strings.TrimSpace(s)), "_", "-"))
}

// label is a product name as GPU Feature Discovery writes the Kubernetes
// node label nvidia.com/gpu.product: characters outside [A-Za-z0-9-_.]
// dropped, spaces turned into dashes. Specs may use either form.
func label(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		}
	}
	return b.String()
}
