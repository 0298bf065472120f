package gpualerts

import (
	"maps"
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

// TestCauseAlertsAreTheRealAlerts: alerting.page_on is checked against
// model.CauseAlerts, which must name exactly the alerts this package
// writes or skips.
func TestCauseAlertsAreTheRealAlerts(t *testing.T) {
	written := map[string]bool{}
	for _, name := range fixtures {
		p := NewPlan(fixture(t, name))
		for _, a := range p.Alerts {
			written[a.Name] = true
		}
		for _, s := range p.Skipped {
			written[s.Alert] = true
		}
	}
	got := slices.Sorted(maps.Keys(written))
	want := slices.Sorted(slices.Values(model.CauseAlerts))
	if !slices.Equal(got, want) {
		t.Errorf("the fixtures' plans have %v, model.CauseAlerts %v", got, want)
	}
}

// TestCauseAlertsAreTicketsUnlessPromoted: a full KV cache or a GPU at
// 95 % VRAM is how vLLM runs under load, so no GPU or serving alert pages
// by default; the one page_on names does.
func TestCauseAlertsAreTicketsUnlessPromoted(t *testing.T) {
	svc := fixture(t, "vllm")
	for _, a := range NewPlan(svc).Alerts {
		if a.Labels["severity"] != svc.Alerting.TicketSeverity {
			t.Errorf("%s has severity %s by default, want the ticket severity %s", a.Name, a.Labels["severity"], svc.Alerting.TicketSeverity)
		}
	}
	svc.Alerting.PageOn = []string{KVCacheHigh}
	for _, a := range NewPlan(svc).Alerts {
		want := svc.Alerting.TicketSeverity
		if a.Name == KVCacheHigh {
			want = svc.Alerting.PageSeverity
		}
		if a.Labels["severity"] != want {
			t.Errorf("with page_on [KVCacheHigh], %s has severity %s, want %s", a.Name, a.Labels["severity"], want)
		}
	}
}
