package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestOpenSLOSetImportsAndBuilds imports the OpenSLO v1 set of
// testdata/openslo-v1 as a directory, builds the spec it writes and runs
// its generated tests. It builds without a warning: the thresholdMetric
// SLO, a p99 under a bound, counts the histogram's requests, which the
// generated tests stage like any other SLO's.
func TestOpenSLOSetImportsAndBuilds(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "imported.cue")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"import", "--out", spec, "testdata/openslo-v1"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("import exited %d:\n%s", code, &stderr)
	}
	data, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`runtime: "vllm"`, `sli:       "ttft"`, `threshold: "1s"`, `sli:         "availability"`, `sli:       "latency"`, `threshold: "10s"`, `team: "search"`} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the imported spec lacks %s:\n%s", want, data)
		}
	}
	stderr.Reset()
	if code := run([]string{"build", "--out", filepath.Join(dir, "out"), spec}, &stdout, &stderr); code != exitOK {
		t.Fatalf("build of the imported spec exited %d:\n%s\n%s", code, &stderr, data)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if strings.HasPrefix(line, "warning:") {
			t.Errorf("unexpected warning: %s", line)
		}
	}
	if code := run([]string{"test", filepath.Join(dir, "out")}, &stdout, &stderr); code != exitOK {
		t.Fatalf("the imported spec's generated tests failed (%d):\n%s", code, &stderr)
	}
	for _, svc := range []string{"chat", "search", "billing"} {
		if _, err := os.Stat(filepath.Join(dir, "out", svc, "rules_test.yaml")); err != nil {
			t.Errorf("service %s has no generated SLO tests: %v", svc, err)
		}
	}
	long, err := os.ReadFile(filepath.Join(dir, "out", "search", "rules-long_test.yaml"))
	if err != nil || !bytes.Contains(long, []byte(`search_duration_seconds_bucket", job="search", le="0.3"`)) {
		t.Errorf("the p99 SLO's requests are not staged in the generated tests (%v):\n%s", err, long)
	}
}
