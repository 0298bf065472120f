package dashboard

import (
	"fmt"
	"slices"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// errorPanels are the errors quadrant: failures by class and aborts as a
// share of all requests, and OOM events where the app counts them.
func errorPanels(s scope) []cog.Builder[dashboard.Panel] {
	return compact(errorRatio(s), oomEvents(s))
}

// errorRatio plots each failure class's share of requests. A runtime
// without a failure counter (a custom app) falls back to its availability
// SLOs' recorded error ratio. The dashed line is the availability budget.
func errorRatio(s scope) cog.Builder[dashboard.Panel] {
	qs := failureQueries(s)
	if len(qs) == 0 {
		qs = sloErrorQueries(s.svc)
	}
	if len(qs) == 0 {
		return nil
	}
	title := "Error ratio"
	if s.svc.Metrics.FailureClass != "" {
		title += " by class"
	}
	p := timeseriesPanel(title,
		"Failed and aborted requests as a share of all requests, by the runtime's failure class where it has one. "+
			"The dashed line is the availability SLO's error budget.",
		units.PercentUnit, qs...).AxisSoftMin(0)
	for _, slo := range s.svc.SLOs {
		if slo.Kind == model.Availability {
			return withLines(p, "green", step{ratio(slo.ErrorBudget()), "red"})
		}
	}
	return p
}

// failureQueries divide failures by class, and aborts unless the failure
// counter already counts them, by the runtime's request total.
func failureQueries(s scope) []query {
	m := s.svc.Metrics.Serving
	totals := s.requestTotals()
	if m.Failures.IsZero() || len(totals) == 0 {
		return nil
	}
	total := s.sumRates(totals)
	share := func(e string) string { return fmt.Sprintf("%s / on() group_left() (%s)", e, total) }
	abortsCounted := !m.Aborts.IsZero() && m.Aborts.Name == m.Failures.Name
	var qs []query
	switch c := m.FailureClass; {
	case c != "":
		var extra []*labels.Matcher
		if slices.ContainsFunc(totals, func(t model.Selector) bool { return t.Name == m.Failures.Name }) {
			extra = append(extra, notSuccess(c))
		}
		qs = append(qs, query{share(sumBy(rate(s.app(m.Failures, extra...)), c)), "{{" + c + "}}"})
	case abortsCounted:
		qs = append(qs, query{share(sumBy(rate(s.app(m.Failures)))), "aborted"})
	default:
		qs = append(qs, query{share(sumBy(rate(s.app(m.Failures)))), "failed"})
	}
	if !m.Aborts.IsZero() && !abortsCounted {
		qs = append(qs, query{share(sumBy(rate(s.app(m.Aborts)))), "aborted"})
	}
	return qs
}

// notSuccess leaves out the classes that are not failures, when the
// failure counter counts every request: vLLM's is its HTTP middleware's,
// which counts every response by status class (2xx, 4xx, 5xx).
func notSuccess(class string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchNotRegexp, class, "[123]xx")
}

// requestTotals are the counters of all requests, as the runtime's
// availability SLI counts them; none for custom apps.
func (s scope) requestTotals() []model.Selector {
	p, ok := profile.ByRuntime(s.svc.Runtime)
	if !ok || p.Availability == nil {
		return nil
	}
	var metrics []model.Selector
	for _, sel := range p.Availability.Total {
		metrics = append(metrics, model.Selector{Name: sel.Name, Matchers: sel.Matchers})
	}
	return metrics
}

// sloErrorQueries read the availability SLOs' base-window recordings, or
// for a service that spans clusters each cluster's error ratio.
func sloErrorQueries(svc model.Service) []query {
	var qs []query
	for _, slo := range svc.SLOs {
		if slo.Kind != model.Availability {
			continue
		}
		if svc.Global != nil { // which cluster burns, as the global ruler records it
			qs = append(qs, query{
				expr:   recorded(rules.ClusterErrorRatioMetric, svc, slo),
				legend: sloLegend(slo, slo.Name+" errors (1h) in {{"+svc.Global.Label+"}}"),
			})
			continue
		}
		w := model.BaseWindow
		qs = append(qs, query{
			expr:   fmt.Sprintf("%s / %s", recorded(rules.Errors(w), svc, slo), recorded(rules.Requests(w), svc, slo)),
			legend: sloLegend(slo, slo.Name+" errors"),
		})
	}
	return qs
}

// oomEvents counts the last day's out-of-memory events against the
// spec's daily allowance; only apps that count OOMs have it (DCGM has no
// such metric).
func oomEvents(s scope) cog.Builder[dashboard.Panel] {
	oom := s.svc.Metrics.OOM
	if oom.IsZero() {
		return nil
	}
	return statPanel("OOM events (24h)",
		"Out-of-memory events in the last day, red from the spec's daily allowance.",
		units.Short,
		query{sumBy(fmt.Sprintf("increase(%s[1d])", s.app(oom))), "OOM events"},
	).Decimals(0).Thresholds(thresholds("green", step{float64(s.svc.Thresholds.OOMPerDay), "red"}))
}
