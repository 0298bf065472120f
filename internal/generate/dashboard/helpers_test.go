package dashboard

import (
	"path/filepath"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

// specFiles are the services the tests build: every example, and one
// spec per other runtime and mapping.
func specFiles(t *testing.T) []string {
	t.Helper()
	var examples []string
	for _, ext := range []string{"*.cue", "*.yaml", "*.json"} {
		m, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", ext))
		if err != nil {
			t.Fatal(err)
		}
		examples = append(examples, m...)
	}
	if len(examples) == 0 {
		t.Fatal("no examples found")
	}
	return append(examples, filepath.Join("testdata", "sglang-host.cue"),
		filepath.Join("testdata", "custom.cue"), filepath.Join("testdata", "vllm-tpot.cue"))
}

// services loads specs through the real loader, as slogen build does.
func services(t *testing.T, files ...string) []model.Service {
	t.Helper()
	res, err := spec.Load(files...)
	if err != nil {
		t.Fatalf("loading %v: %v", files, err)
	}
	return res.Spec.Services
}

func service(t *testing.T, name string) model.Service {
	t.Helper()
	for _, svc := range services(t, specFiles(t)...) {
		if svc.Name == name {
			return svc
		}
	}
	t.Fatalf("no service %s", name)
	return model.Service{}
}
