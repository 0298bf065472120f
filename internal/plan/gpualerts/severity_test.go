package gpualerts_test

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// TestCauseAlertsAreTicketsUnlessPromoted: a full KV cache or a GPU at
// 95 % VRAM is how vLLM runs under load, so no GPU or serving alert pages
// by default; the one page_on names does.
func TestCauseAlertsAreTicketsUnlessPromoted(t *testing.T) {
	svc := fixture(t, "vllm")
	for _, a := range gpualerts.NewPlan(svc).Alerts {
		if a.Labels["severity"] != svc.Alerting.TicketSeverity {
			t.Errorf("%s has severity %s by default, want the ticket severity %s", a.Name, a.Labels["severity"], svc.Alerting.TicketSeverity)
		}
	}
	svc.Alerting.PageOn = []string{gpualerts.KVCacheHigh}
	for _, a := range gpualerts.NewPlan(svc).Alerts {
		want := svc.Alerting.TicketSeverity
		if a.Name == gpualerts.KVCacheHigh {
			want = svc.Alerting.PageSeverity
		}
		if a.Labels["severity"] != want {
			t.Errorf("with page_on [KVCacheHigh], %s has severity %s, want %s", a.Name, a.Labels["severity"], want)
		}
	}
}
