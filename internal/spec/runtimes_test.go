package spec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// The schema's runtimes are the profile table's: each loads, with its
// scrape defaults and VRAM threshold from its entry, and a name not in
// the table is refused with every one of them listed.
func TestSchemaTakesTheRuntimeTable(t *testing.T) {
	for _, p := range profile.Runtimes() {
		metrics := ""
		if p.Runtime == profile.CustomRuntime {
			metrics = `metrics: {requests: "r_total", errors: "e_total"}, `
		}
		src := fmt.Sprintf(`services: s: {runtime: %q, %sselector: {namespace: "ns", job: "j"}, slos: %s}`, p.Runtime, metrics, servedSLO(p))
		res, err := LoadSources(Source{Name: "s.cue", Data: []byte(src)})
		if err != nil {
			t.Errorf("%s: %v", p.Runtime, err)
			continue
		}
		svc := res.Spec.Services[0]
		if svc.Scrape.Runtime.Port != p.Port || svc.Scrape.Runtime.Path != p.Path {
			t.Errorf("%s: scraped at :%d%s, want its entry's :%d%s", p.Runtime, svc.Scrape.Runtime.Port, svc.Scrape.Runtime.Path, p.Port, p.Path)
		}
		if want := map[bool]float64{true: preallocatedVRAMPercent, false: defaultVRAMPercent}[p.Preallocation != ""]; svc.Thresholds.VRAMPercent != want {
			t.Errorf("%s: vram_percent defaults to %v, want %v", p.Runtime, svc.Thresholds.VRAMPercent, want)
		}
	}
	sorted := slices.Sorted(slices.Values(profile.Names()))
	want := fmt.Sprintf(`s.cue:1:24: services.s.runtime: must be one of %s (got "vlm")`, strings.Join(sorted, ", "))
	_, err := LoadSources(Source{Name: "s.cue", Data: []byte(`services: s: {runtime: "vlm", slos: availability: objective: 99}`)})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("unknown runtime: %v\nwant %s", err, want)
	}
}

// servedSLO is an SLO the runtime can serve: availability, or where it
// counts no failures, its first histogram's kind at one of its bounds.
func servedSLO(p profile.Profile) string {
	if p.Availability != nil || p.Runtime == profile.CustomRuntime {
		return "availability: objective: 99"
	}
	for _, k := range model.LatencyKinds {
		if h := p.Histogram(k); h != nil {
			return fmt.Sprintf("%s: {objective: 99, threshold: %q}", k, h.Seconds(h.Buckets[0]))
		}
	}
	return ""
}
