package discover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/spec"
)

// smallBlock keeps the expected files short.
func smallBlock() Block {
	return Block{Product: "NVIDIA H200", Count: 8, MemoryMiB: 143771,
		Discovered: Discovered{Host: "gpu-node-7", DriverVersion: "570.86.15", CUDAVersion: "12.8", Devices: []Device{{Index: 0, Name: "NVIDIA H200", UUID: "GPU-1", MemoryMiB: 143771}}}}
}

// TestUpdate replaces one service's gpu block and adds another's, in CUE
// and YAML; golden files show that nothing else moved, and the result
// still loads with the new block.
func TestUpdate(t *testing.T) {
	for _, file := range []string{"chat.cue", "chat.yaml"} {
		src, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, svc := range []string{"chat-llama", "summarize"} {
			out, err := Update(file, src, svc, smallBlock())
			if err != nil {
				t.Fatalf("%s %s: %v", file, svc, err)
			}
			golden(t, file+"-"+svc, out)
			res, err := spec.LoadSources(spec.Source{Name: file, Data: out})
			if err != nil {
				t.Fatalf("%s %s: the result does not load:\n%s\n%v", file, svc, out, err)
			}
			for _, s := range res.Spec.Services {
				if s.Name == svc && (s.GPU.Product != "NVIDIA H200" || s.GPU.Count != 8) {
					t.Errorf("%s %s: gpu %+v", file, svc, s.GPU)
				}
			}
			again, err := Update(file, out, svc, smallBlock())
			if err != nil || string(again) != string(out) {
				t.Errorf("%s %s: a second update changed the file again (%v)", file, svc, err)
			}
		}
	}
}

func TestUpdateRefuses(t *testing.T) {
	tests := map[string]struct {
		file, src, service, want string
	}{
		"A service the file does not declare.": {"a.cue", "services: x: {runtime: \"vllm\"}\n", "y", `declares no service "y"`},
		"A YAML service in flow style.":        {"a.yaml", "services:\n  x: {runtime: vllm}\n", "x", "flow mapping"},
		"A JSON spec.":                         {"a.json", "{}", "x", "for JSON, print the block"},
		"A file that does not parse.":          {"a.cue", "services: {", "x", "expected"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Update(tc.file, []byte(tc.src), tc.service, smallBlock())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want it to mention %q", err, tc.want)
			}
		})
	}
}
