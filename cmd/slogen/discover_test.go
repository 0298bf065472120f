package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/discover"
)

func stubHost(t *testing.T, h discover.Host, err error) {
	t.Helper()
	saved := readHost
	readHost = func() (discover.Host, []string, error) { return h, nil, err }
	t.Cleanup(func() { readHost = saved })
}

func h200Host() discover.Host {
	return discover.Host{Hostname: "gpu-node-7", DriverVersion: "570.86.15", CUDAVersion: "12.8",
		GPUs: []discover.GPU{{Index: 0, Name: "NVIDIA H200", UUID: "GPU-1", MemoryMiB: 143771, ComputeCapability: "9.0"}}}
}

func runCmd(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDiscoverPrintsTheBlock(t *testing.T) {
	stubHost(t, h200Host(), nil)
	for form, want := range map[string]string{"cue": "gpu: {\n\tproduct:    \"NVIDIA H200\"", "yaml": "gpu:\n  product: NVIDIA H200", "json": "{\n  \"gpu\": {\n    \"product\": \"NVIDIA H200\""} {
		code, out, errOut := runCmd("discover", "--format", form)
		if code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", form, code, out, errOut)
		}
	}
}

func TestDiscoverFailsWithoutNVML(t *testing.T) {
	stubHost(t, discover.Host{}, discover.ErrNoLibrary)
	code, out, errOut := runCmd("discover")
	if code != exitFailed || out != "" || !strings.Contains(errOut, "libnvidia-ml.so.1") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

func TestDiscoverWritesTheSpec(t *testing.T) {
	stubHost(t, h200Host(), nil)
	p := filepath.Join(t.TempDir(), "chat.cue")
	src := "// keep me\nservices: \"chat-llama\": {\n\truntime: \"vllm\"\n\tslos: availability: objective: 99\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd("discover", "--write", p, "--service", "chat-llama")
	if code != 0 || !strings.Contains(out, "1 × NVIDIA H200") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	b, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(b), "// keep me\n") || !strings.Contains(string(b), "memory_mib: 143771") {
		t.Errorf("wrote:\n%s", b)
	}
	if code, _, _ := runCmd("vet", p); code != 0 {
		t.Errorf("vet of the written spec exits %d", code)
	}
}

func TestDiscoverFlagMistakes(t *testing.T) {
	stubHost(t, h200Host(), nil)
	for _, args := range [][]string{{"discover", "--write", "x.cue"}, {"discover", "--service", "x"}, {"discover", "--format", "toml"}} {
		if code, _, _ := runCmd(args...); code != exitBadSpec {
			t.Errorf("%v: exit %d; want %d", args, code, exitBadSpec)
		}
	}
}
