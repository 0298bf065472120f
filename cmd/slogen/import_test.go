package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestSlothExamplesImportAndBuild imports each of Sloth's plain-Prometheus
// examples and builds the spec it writes: every SLO of them must come
// through as a ratio SLO that slogen accepts.
func TestSlothExamplesImportAndBuild(t *testing.T) {
	files, err := filepath.Glob("testdata/sloth-v0.16.0/*.y*ml")
	if err != nil || len(files) < 10 {
		t.Fatalf("want Sloth's examples in testdata/sloth-v0.16.0, got %d (%v)", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			dir := t.TempDir()
			spec := filepath.Join(dir, "imported.cue")
			var stdout, stderr bytes.Buffer
			if code := run([]string{"import", "--out", spec, f}, &stdout, &stderr); code != exitOK {
				t.Fatalf("import exited %d:\n%s", code, &stderr)
			}
			if bytes.Contains(stderr.Bytes(), []byte("left out")) {
				t.Errorf("an SLO of a plain-Prometheus example was left out:\n%s", &stderr)
			}
			stderr.Reset()
			if code := run([]string{"build", "--out", filepath.Join(dir, "out"), spec}, &stdout, &stderr); code != exitOK {
				data, _ := os.ReadFile(spec)
				t.Fatalf("build of the imported spec exited %d:\n%s\n%s", code, &stderr, data)
			}
			if code := run([]string{"test", filepath.Join(dir, "out")}, &stdout, &stderr); code != exitOK {
				t.Fatalf("the imported spec's generated tests failed (%d):\n%s", code, &stderr)
			}
		})
	}
}
