package dcgm

import (
	"slices"
	"testing"
)

// Every field slogen reads is in the counters file it writes, once, the
// ones dcgm-exporter collects by default first.
func TestReadListsEveryField(t *testing.T) {
	want := append([]string{FBUsed, FBFree, GPUTemp, GPUUtil, PowerUsage, XIDErrors, TensorActive, DRAMActive,
		PCIeReplays, ECCDoubleBit, RowRemapFailure, UncorrectableRemappedRows}, append(slices.Clone(Violations), NVLinkErrors...)...)
	var got []string
	seenOther := false
	for _, f := range Read {
		got = append(got, f.Name)
		if f.Default && seenOther {
			t.Errorf("%s is a default field after one that is not", f.Name)
		}
		seenOther = seenOther || !f.Default
		if f.Type != "gauge" && f.Type != "counter" {
			t.Errorf("%s: type %q", f.Name, f.Type)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("Read lists %v, want %v", got, want)
	}
}
