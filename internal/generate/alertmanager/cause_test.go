package alertmanager_test

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// TestCauseAlertsReachTheTicketReceiverUnlessPromoted routes each GPU and
// serving alert of every service as its rule fires it: to the ticket
// receiver, and, once alerting.page_on names it, to the page receiver.
func TestCauseAlertsReachTheTicketReceiverUnlessPromoted(t *testing.T) {
	svcs := load(t)
	for i := range svcs {
		svcs[i].Alerting.PageOn = []string{gpualerts.XIDErrors}
	}
	cfg, _ := build(t, svcs)
	for _, svc := range svcs {
		for _, a := range gpualerts.NewPlan(svc).Alerts {
			want := svc.Alerting.TicketReceiver
			if a.Name == gpualerts.XIDErrors {
				want = svc.Alerting.PageReceiver
			}
			if got := receiver(cfg.Route, alert(a.Name, a.Labels, "gpu", "0")); got != want {
				t.Errorf("%s: %s goes to %s, want %s", svc.Name, a.Name, got, want)
			}
		}
	}
}
