package discover

import (
	"bytes"
	"encoding/json"
	"fmt"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/format"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/gpu"
)

// Block is a spec's gpu block, in the schema's field names and order.
type Block struct {
	Product    string     `json:"product" yaml:"product"`
	Count      int        `json:"count" yaml:"count"`
	MemoryMiB  int        `json:"memory_mib" yaml:"memory_mib"`
	Discovered Discovered `json:"discovered" yaml:"discovered"`
}

// Discovered records what the block was read from.
type Discovered struct {
	Host          string   `json:"host,omitempty" yaml:"host,omitempty"`
	DriverVersion string   `json:"driver_version,omitempty" yaml:"driver_version,omitempty"`
	CUDAVersion   string   `json:"cuda_version,omitempty" yaml:"cuda_version,omitempty"`
	Devices       []Device `json:"devices" yaml:"devices"`
}

// Device is one GPU as the block records it.
type Device struct {
	Index             int        `json:"index" yaml:"index"`
	Name              string     `json:"name" yaml:"name"`
	UUID              string     `json:"uuid" yaml:"uuid"`
	MemoryMiB         int        `json:"memory_mib" yaml:"memory_mib"`
	ComputeCapability string     `json:"compute_capability,omitempty" yaml:"compute_capability,omitempty"`
	MIG               *DeviceMIG `json:"mig,omitempty" yaml:"mig,omitempty"`
}

// DeviceMIG is a GPU's MIG mode and instances.
type DeviceMIG struct {
	Enabled   bool          `json:"enabled" yaml:"enabled"`
	Pending   bool          `json:"pending" yaml:"pending"`
	Instances []MIGInstance `json:"instances,omitempty" yaml:"instances,omitempty"`
}

// MIGInstance is one MIG GPU instance.
type MIGInstance struct {
	ID               int `json:"id" yaml:"id"`
	Slices           int `json:"slices" yaml:"slices"`
	MemoryMiB        int `json:"memory_mib" yaml:"memory_mib"`
	ComputeInstances int `json:"compute_instances" yaml:"compute_instances"`
}

// NewBlock makes the gpu block of a host. A host with several GPU models
// gets the most common one (the lowest index breaks ties), and a warning:
// a service runs on one model.
func NewBlock(h Host) (Block, []string) {
	counts := map[string]int{}
	for _, g := range h.GPUs {
		counts[g.Name]++
	}
	main := h.GPUs[0]
	for _, g := range h.GPUs {
		if counts[g.Name] > counts[main.Name] {
			main = g
		}
	}
	b := Block{Product: main.Name, Count: counts[main.Name], MemoryMiB: main.MemoryMiB,
		Discovered: Discovered{Host: h.Hostname, DriverVersion: h.DriverVersion, CUDAVersion: h.CUDAVersion}}
	var warnings []string
	if len(counts) > 1 {
		warnings = append(warnings, fmt.Sprintf("this host has %d GPU models; the block describes the %d %s", len(counts), b.Count, b.Product))
	}
	if _, known := gpu.Lookup(main.Name); !known {
		warnings = append(warnings, fmt.Sprintf("%q is not in slogen's GPU catalog; the block keeps its memory_mib, so build accepts it with a warning", main.Name))
	}
	for _, g := range h.GPUs {
		b.Discovered.Devices = append(b.Discovered.Devices, device(g))
	}
	return b, warnings
}

func device(g GPU) Device {
	d := Device{Index: g.Index, Name: g.Name, UUID: g.UUID, MemoryMiB: g.MemoryMiB, ComputeCapability: g.ComputeCapability}
	if g.MIG != nil {
		d.MIG = &DeviceMIG{Enabled: g.MIG.Enabled, Pending: g.MIG.Pending}
		for _, in := range g.MIG.Instances {
			d.MIG.Instances = append(d.MIG.Instances, MIGInstance(in))
		}
	}
	return d
}

// Formats Encode writes.
var Formats = []string{"cue", "yaml", "json"}

// Encode writes the block as a top-level gpu field in one of Formats.
func Encode(b Block, form string) ([]byte, error) {
	switch form {
	case "cue":
		expr, err := cueExpr(b)
		if err != nil {
			return nil, err
		}
		return format.Node(&ast.File{Decls: []ast.Decl{&ast.Field{Label: ast.NewIdent("gpu"), Value: expr}}})
	case "yaml":
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(map[string]Block{"gpu": b}); err != nil {
			return nil, err
		}
		return buf.Bytes(), enc.Close()
	case "json":
		out, err := json.MarshalIndent(map[string]Block{"gpu": b}, "", "  ")
		return append(out, '\n'), err
	}
	return nil, fmt.Errorf("unknown format %q: use one of %v", form, Formats)
}

// cueExpr is the block as a CUE struct, fields in the schema's order.
func cueExpr(b Block) (ast.Expr, error) {
	v := cuecontext.New().Encode(b)
	if err := v.Err(); err != nil {
		return nil, err
	}
	n := v.Syntax()
	expr, ok := n.(ast.Expr)
	if !ok {
		return nil, fmt.Errorf("encoding the gpu block: got %T", n)
	}
	return expr, nil
}
