package gpu

import (
	"slices"
	"testing"
)

func TestLookup(t *testing.T) {
	tests := map[string]struct {
		name   string
		want   string
		wantOK bool
	}{
		"The NVML name finds its product.":                        {"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3", true},
		"The GPU Feature Discovery label finds the same product.": {"NVIDIA-H100-80GB-HBM3", "NVIDIA H100 80GB HBM3", true},
		"Case and surrounding space do not matter.":               {"  nvidia l40s ", "NVIDIA L40S", true},
		"A go-nvml mock name is not a real product.":              {"NVIDIA H200 141GB HBM3e", "", false},
		"A prefix of a name is not a match.":                      {"NVIDIA H100", "", false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, ok := Lookup(tc.name)
			if ok != tc.wantOK || p.Name != tc.want {
				t.Fatalf("Lookup(%q) = %q, %v; want %q, %v", tc.name, p.Name, ok, tc.want, tc.wantOK)
			}
		})
	}
}

func TestNearestSuggestsTheIntendedProduct(t *testing.T) {
	got := Nearest("NVIDIA H100 80GB", 3)
	if len(got) != 3 || !slices.Contains(got, "NVIDIA H100 80GB HBM3") {
		t.Fatalf("Nearest = %v; want 3 names including NVIDIA H100 80GB HBM3", got)
	}
}

func TestCatalogIsConsistent(t *testing.T) {
	labels := map[string]bool{}
	for _, p := range catalog {
		if p.MemoryMiB <= 0 || p.Generation == "" || p.ComputeCapability == "" {
			t.Errorf("%s: incomplete entry %+v", p.Name, p)
		}
		if labels[normal(p.Name)] {
			t.Errorf("%s: two products share the label %s", p.Name, label(p.Name))
		}
		labels[normal(p.Name)] = true
	}
	if got := label("NVIDIA A100 80GB PCIe"); got != "NVIDIA-A100-80GB-PCIe" {
		t.Errorf("label = %q; want NVIDIA-A100-80GB-PCIe", got)
	}
}
