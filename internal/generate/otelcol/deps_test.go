package otelcol_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSlogenImportsNoCollector keeps the Collector's modules where they
// belong, in the tests that prove the fragment: the slogen binary writes
// YAML and must not carry the Collector.
func TestSlogenImportsNoCollector(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", "github.com/slogen-dev/slogen/cmd/slogen").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "go.opentelemetry.io/collector") || strings.HasPrefix(pkg, "github.com/open-telemetry/opentelemetry-collector-contrib") {
			t.Errorf("cmd/slogen depends on the Collector's %s; only tests may", pkg)
		}
	}
}
