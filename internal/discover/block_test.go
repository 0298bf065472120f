package discover

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/spec"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// testHost is a DGX H100's worth of NVML answers, one GPU in MIG mode.
func testHost() Host {
	h := Host{Hostname: "gpu-node-1", DriverVersion: "550.54.15", CUDAVersion: "12.4"}
	for i := range 2 {
		h.GPUs = append(h.GPUs, GPU{Index: i, Name: "NVIDIA H100 80GB HBM3", UUID: "GPU-0000000" + string(rune('0'+i)), MemoryMiB: 81559, ComputeCapability: "9.0", MIG: &MIG{}})
	}
	h.GPUs[1].MIG = &MIG{Enabled: true, Instances: []Instance{{ID: 1, Slices: 1, MemoryMiB: 9856, ComputeInstances: 1}}}
	return h
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", t.Name(), name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(want) != string(got) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

// TestEncode: the block in each format, and each a valid gpu block: a
// spec holding it loads.
func TestEncode(t *testing.T) {
	b, warnings := NewBlock(testHost())
	if len(warnings) > 0 {
		t.Errorf("warnings: %v", warnings)
	}
	for _, form := range Formats {
		out, err := Encode(b, form)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, form, out)
		if form == "json" {
			continue // a JSON spec cannot hold a second top-level object
		}
		specFile := map[string]string{
			"cue":  "services: x: {\nruntime: \"vllm\"\nslos: availability: objective: 99\n" + string(out) + "}\n",
			"yaml": "services:\n  x:\n    runtime: vllm\n    slos: {availability: {objective: 99}}\n" + indentLines(string(out), "    "),
		}[form]
		res, err := spec.LoadSources(spec.Source{Name: "spec." + form, Data: []byte(specFile)})
		if err != nil {
			t.Fatalf("%s block does not load:\n%s\n%v", form, specFile, err)
		}
		if g := res.Spec.Services[0].GPU; g.Product != b.Product || g.Count != 2 || g.MemoryMiB != 81559 {
			t.Errorf("%s: loaded %+v", form, g)
		}
	}
	if _, err := Encode(b, "toml"); err == nil {
		t.Error("toml encoded")
	}
}

func indentLines(s, ind string) string {
	return ind + strings.TrimSuffix(strings.ReplaceAll(s, "\n", "\n"+ind), ind)
}
