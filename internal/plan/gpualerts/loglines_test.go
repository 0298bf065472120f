package gpualerts_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// TestLogAlertsAreTheLinesTheRuntimeWrites: a service whose Collector
// counts its lines gets an alert on each line its runtime writes, and no
// other; without a collector block it gets none, and vet says why.
func TestLogAlertsAreTheLinesTheRuntimeWrites(t *testing.T) {
	want := map[string][]string{
		"vllm":   {gpualerts.CUDAOutOfMemory, gpualerts.NCCLTimeout, gpualerts.VLLMEngineDead, gpualerts.VLLMNoKVCacheMemory},
		"sglang": {gpualerts.CUDAOutOfMemory, gpualerts.NCCLTimeout, gpualerts.SGLangPrefillOOM},
		"triton": {gpualerts.CUDAOutOfMemory, gpualerts.NCCLTimeout},
		"tgi":    nil, // its fixture has no collector block
	}
	for _, name := range slices.Sorted(maps.Keys(want)) {
		plan := gpualerts.NewPlan(fixture(t, name))
		var got []string
		for _, a := range plan.Alerts {
			if _, logged := gpualerts.LogEvents[a.Name]; logged {
				got = append(got, a.Name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want[name]) {
			t.Errorf("%s gets %v, want %v", name, got, want[name])
		}
		if name == "tgi" {
			for _, s := range plan.Skipped {
				torch := s.Alert == gpualerts.CUDAOutOfMemory || s.Alert == gpualerts.NCCLTimeout
				if torch && !strings.Contains(s.Reason, "collector block") {
					t.Errorf("tgi skips %s: %q, want the collector block named", s.Alert, s.Reason)
				}
			}
		}
	}
}

// TestEachLogAlertReadsOneCountOfItsService: an alert's expression
// selects one metric, its event's, of its own service (by the count's
// service_name, not the runtime's selector), so that the `or` inside it
// matches a series with itself and never with another event's count of
// the same pod.
func TestEachLogAlertReadsOneCountOfItsService(t *testing.T) {
	svc := fixture(t, "vllm")
	for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
		for _, r := range g.Rules {
			event, logged := gpualerts.LogEvents[r.Alert]
			if !logged {
				continue
			}
			for _, sel := range pql.Selectors(r.Expr) {
				got := labels.New(labels.Label{Name: labels.MetricName, Value: sel.Name}, labels.Label{Name: "service_name", Value: svc.Name})
				if sel.Name != gpualerts.LogCountMetric(event) || len(sel.LabelMatchers) != 2 || !matchesAll(sel.LabelMatchers, got) {
					t.Errorf("%s selects %s, want %s{service_name=%q} only", r.Alert, sel, gpualerts.LogCountMetric(event), svc.Name)
				}
			}
		}
	}
}

func matchesAll(ms []*labels.Matcher, ls labels.Labels) bool {
	for _, m := range ms {
		if !m.Matches(ls.Get(m.Name)) {
			return false
		}
	}
	return true
}
