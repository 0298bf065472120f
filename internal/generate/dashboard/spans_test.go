package dashboard

import (
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"

	"github.com/slogen-dev/slogen/internal/plan"
)

// TestWhereTheTimeGoesOnlyWithACollector: a service whose Collector
// computes span metrics gets the span panel, with exemplars on, a line
// per span name and a link to its traces on the trace data source
// variable; every other service gets neither panel nor variable, on its
// own dashboard and on its kind's.
func TestWhereTheTimeGoesOnlyWithACollector(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		want := (scope{svc: svc}).hasSpans()
		for _, p := range []*plan.Service{plan.New(svc), plan.NewIn(svc, plan.Fleet)} {
			build, what := Build, "dashboard"
			if p.Layout == plan.Fleet {
				build, what = BuildKind, "kind dashboard"
			}
			d, err := build(p)
			if err != nil {
				t.Fatal(err)
			}
			panel := panelTitled(d, "Where the time goes")
			if got := panel != nil; got != want {
				t.Errorf("%s's %s: span panel %v, want %v", svc.Name, what, got, want)
			}
			if got := hasVariable(d, tracesVar); got != want {
				t.Errorf("%s's %s: trace data source variable %v, want %v", svc.Name, what, got, want)
			}
			if panel != nil {
				spanPanelReadsTheSpanMetrics(t, svc.Name+"'s "+what, panel)
			}
		}
	}
}

func spanPanelReadsTheSpanMetrics(t *testing.T, what string, p *dashboard.Panel) {
	t.Helper()
	for _, tg := range p.Targets {
		q := tg.(prometheus.Dataquery)
		if !strings.Contains(q.Expr, plan.SpanDuration+"_bucket") || !strings.Contains(q.Expr, "by (span_name, le)") {
			t.Errorf("%s: the span panel's query %s is not a percentile per span name", what, q.Expr)
		}
		if q.Exemplar == nil || !*q.Exemplar {
			t.Errorf("%s: the span panel's query %s has no exemplars", what, q.Expr)
		}
	}
	links := p.FieldConfig.Defaults.Links
	if len(links) != 1 || links[0].Url == nil || !strings.Contains(*links[0].Url, `"uid":"${traces}"`) || !strings.Contains(*links[0].Url, "${__field.labels.span_name}") {
		t.Errorf("%s: the span panel links %+v, want Explore on ${traces} for the line's span name", what, links)
	}
}

func panelTitled(d dashboard.Dashboard, title string) *dashboard.Panel {
	for _, p := range d.Panels {
		if p.Panel != nil && p.Panel.Title != nil && *p.Panel.Title == title {
			return p.Panel
		}
	}
	return nil
}

func hasVariable(d dashboard.Dashboard, name string) bool {
	for _, v := range d.Templating.List {
		if v.Name == name {
			return v.Type == dashboard.VariableTypeDatasource && v.Query != nil && v.Query.String != nil && *v.Query.String == "tempo"
		}
	}
	return false
}
