package dashboard

import (
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// errorsPanels are the errors quadrant's panels that draw fatal lines.
var errorsPanels = []string{"Errors the availability SLO counts", "Error ratio by class"}

// TestLoggedLinesAreTheAlertsQueries: the errors quadrant draws one
// series per alert on a fatal log line the service gets, and each, with
// its pod filter taken out, is the alert's own expression; a service
// whose Collector counts no lines draws none, on its own dashboard and
// on its kind's.
func TestLoggedLinesAreTheAlertsQueries(t *testing.T) {
	checked := 0
	for _, svc := range services(t, specFiles(t)...) {
		var want []string
		for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
			for _, r := range g.Rules {
				if _, ok := gpualerts.LogEvents[r.Alert]; ok {
					want = append(want, pql.Print(r.Expr))
				}
			}
		}
		d, _ := build(t, svc.Name)
		var got []string
		for _, q := range grafanatest.Queries(d) {
			if !isLoggedLine(q.Legend) {
				continue
			}
			if !slices.Contains(errorsPanels, q.Panel) {
				t.Errorf("%s: fatal line %q drawn on %q, not beside the HTTP errors", svc.Name, q.Legend, q.Panel)
			}
			got = append(got, withoutFilters(t, q.Expr))
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the errors panel draws\n%v\nthe alerts on fatal lines read\n%v", svc.Name, got, want)
		}
		kind, err := BuildKind(plan.NewIn(svc, plan.Fleet))
		if err != nil {
			t.Fatal(err)
		}
		var onKind int
		for _, q := range grafanatest.Queries(kind) {
			if isLoggedLine(q.Legend) {
				onKind++
			}
		}
		if onKind != len(want) {
			t.Errorf("%s's kind dashboard draws %d fatal lines, want %d", svc.Name, onKind, len(want))
		}
		if len(want) > 0 {
			checked++
		}
	}
	if checked < 4 {
		t.Fatalf("%d test services draw fatal lines, want one per runtime that writes them (vLLM, SGLang, TGI, Triton)", checked)
	}
}
