package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to the loader as CUE, YAML and JSON. It
// must return a model or diagnostics, never panic. The seed corpus is the
// examples plus testdata/fuzz/FuzzLoad.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{"../../examples/*/*.cue", "../../examples/*/*.yaml", "testdata/*.cue", "testdata/*.yaml", "testdata/*.json"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(filepath.Ext(p), data)
		}
	}
	f.Fuzz(func(t *testing.T, ext string, data []byte) {
		switch ext {
		case ".cue", ".yaml", ".json":
		default:
			ext = ".cue"
		}
		res, err := LoadSources(Source{Name: "fuzz" + ext, Data: data})
		if err == nil {
			for _, svc := range res.Spec.Services {
				if !serviceNameRe.MatchString(svc.Name) {
					t.Fatalf("accepted service name %q", svc.Name)
				}
			}
		}
	})
}
