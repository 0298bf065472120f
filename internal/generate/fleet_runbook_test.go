package generate

import (
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
)

// A fleet's output holds one runbook, at its top, and every runbook link
// of every service's rule files lands on a section of it: by the link's
// anchor, under runbook_base_url with no service in the path.
func TestFleetLinksLandInItsRunbook(t *testing.T) {
	const base = "https://git.example.com/org/slo/blob/main/deploy"
	cue := strings.Replace(variedFleet, `runtime: "vllm"`, `runtime: "vllm"
	alerting: runbook_base_url: "`+base+`/"`, 1)
	loaded, files := buildSource(t, cue, Options{})
	runbook, ok := files[RunbookFile]
	if !ok {
		t.Fatalf("the fleet's output has no %s", RunbookFile)
	}
	anchors := runbooks.Anchors(runbook)
	link := regexp.MustCompile(`runbook_url: (\S+)`)
	var n int
	for p, data := range files {
		if path.Base(p) == RunbookFile && p != RunbookFile {
			t.Errorf("%s: a fleet's service has a runbook of its own", p)
		}
		if !strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, "_test.yaml") {
			continue
		}
		for _, m := range link.FindAllSubmatch(data, -1) {
			n++
			if a, ok := strings.CutPrefix(string(m[1]), base+"/"+RunbookFile+"#"); !ok || !anchors[a] {
				t.Errorf("%s links %s, which is no section of the fleet's %s", p, m[1], RunbookFile)
			}
		}
	}
	// Each service's own alerts, and those its fleet shares once: the
	// guard only catches links gone missing wholesale, so it falls as more
	// alerts are shared (burn-rate and budget, then serving alerts).
	if n < 10*len(loaded.Services) {
		t.Errorf("found %d runbook links in %d services' rule files", n, len(loaded.Services))
	}
}
