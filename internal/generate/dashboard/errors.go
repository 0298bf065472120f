package dashboard

import (
	"fmt"
	"slices"
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/text"
	"github.com/grafana/grafana-foundation-sdk/go/units"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// errorPanels are the errors quadrant: what the availability SLOs count
// against their budgets, with the engine's fatal log lines beside them
// where a Collector counts them, and OOM events where the app counts
// them; for a runtime that counts neither, why not.
func errorPanels(s scope) builders {
	if panels := compact(errorRatio(s), oomEvents(s)); len(panels) > 0 {
		return panels
	}
	return compact(failuresNotCounted(s), scrapeUp(s))
}

// failuresNotCounted tells the on-call engineer why the quadrant has no
// errors to draw and what measures them instead, as the runtime table
// says; nil where it says nothing.
func failuresNotCounted(s scope) cog.Builder[dashboard.Panel] {
	why := s.runtime.Unsupported[model.Availability]
	if why == "" {
		return nil
	}
	return text.NewPanelBuilder().
		Title("Errors: not counted").
		Description("The runtime counts no failed requests, so there is no error ratio to draw.").
		Mode(text.TextModeMarkdown).
		Content(why + ".")
}

// scrapeUp is whether Prometheus reaches each process, for a runtime that
// counts no failures: a process down fails all it would serve.
func scrapeUp(s scope) cog.Builder[dashboard.Panel] {
	return timeseriesPanel("Process up",
		"1 while Prometheus scrapes the process, 0 when it cannot: the runtime counts no failed requests, so a process down is the only failure drawn.",
		"none", plot(pql.Max(s.app(model.Metric("up")), pql.By(s.target())), s.targetLegend(""))).Min(0).Max(1)
}

// errorRatio plots what each availability SLO counts: its error ratio as
// its rules record it, split by the runtime's failure class where the SLO
// counts whole classes, against the SLO's error budget. Failures it does
// not count (vLLM's 4xx, aborted requests) spend no budget, so they are
// not drawn against it. A service without an availability SLO has no
// budget: it gets the runtime's failures by class, with no line.
func errorRatio(s scope) cog.Builder[dashboard.Panel] {
	var slos []model.SLO
	for _, slo := range s.svc.SLOs {
		if slo.Kind == model.Availability {
			slos = append(slos, slo)
		}
	}
	if len(slos) == 0 {
		return failuresByClass(s)
	}
	qs := append(sloErrorQueries(s.svc), countedByClass(s)...)
	var budgets []query
	for _, slo := range slos {
		budget := slo.ErrorBudget()
		budgets = append(budgets, plot(s.budgetLine(slo), s.kindLegend(fmt.Sprintf("%s budget: %s%% of requests", slo.Name, rules.Percent(budget)), slo.Name+" budget")))
	}
	lines := loggedLines(s)
	p := timeseriesPanel("Errors the availability SLO counts",
		"The error ratio each availability SLO counts, as its rules record it (over 5m; per cluster over 1h for a service across clusters), "+
			"and where the runtime labels the failures it counts, "+
			"their split by class. Dashed red: the SLO's error budget (1 − objective); above it the budget burns faster than the SLO allows. "+
			"Failures the SLO does not count (client errors, aborted requests) spend no budget and are not drawn."+loggedLinesAbout(lines),
		units.PercentUnit, qs...).AxisSoftMin(0)
	return withLoggedLines(withLimits(p, len(qs), budgets...), len(qs)+len(budgets), lines)
}

// failuresByClass plots each failure class's share of requests, for a
// service with no availability SLO; nil when the runtime counts no
// failures.
func failuresByClass(s scope) cog.Builder[dashboard.Panel] {
	qs := failureQueries(s)
	if len(qs) == 0 {
		return nil
	}
	lines := loggedLines(s)
	p := timeseriesPanel("Error ratio by class",
		"Failed and aborted requests as a share of all requests, by the runtime's failure class where it has one. "+
			"The service has no availability SLO, so no budget to draw."+loggedLinesAbout(lines),
		units.PercentUnit, qs...).AxisSoftMin(0)
	return withLoggedLines(p, len(qs), lines)
}

// countedByClass splits the failures the runtime's availability SLI
// counts by the runtime's failure class, as a share of the requests it
// counts: only where the SLI counts the classified failure counter whole
// (TGI's err, Triton's reason), so the classes add up to the SLO's ratio.
func countedByClass(s scope) []query {
	p := s.runtime
	class := s.svc.Metrics.FailureClass
	if p.Availability == nil || class == "" || len(p.Availability.Failed) != 1 {
		return nil
	}
	failed := p.Availability.Failed[0]
	if failed.Name != s.svc.Metrics.Failures.Name || slices.ContainsFunc(failed.Matchers, func(m *labels.Matcher) bool { return m.Name == class }) {
		return nil
	}
	sel := model.Selector{Name: failed.Name, Matchers: failed.Matchers}
	return []query{plot(share(sumBy(rate(s.app(sel)), class), s.sumRates(s.requestTotals())), "{{"+class+"}}")}
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
	shareOf := func(e pql.Expr, legend string) query { return plot(share(e, total), legend) }
	abortsCounted := !m.Aborts.IsZero() && m.Aborts.Name == m.Failures.Name
	var qs []query
	switch c := m.FailureClass; {
	case c != "":
		var extra []*labels.Matcher
		if slices.ContainsFunc(totals, func(t model.Selector) bool { return t.Name == m.Failures.Name }) {
			extra = append(extra, notSuccess(c))
		}
		qs = append(qs, shareOf(sumBy(rate(s.app(m.Failures, extra...)), c), "{{"+c+"}}"))
	case abortsCounted:
		qs = append(qs, shareOf(sumBy(rate(s.app(m.Failures))), "aborted"))
	default:
		qs = append(qs, shareOf(sumBy(rate(s.app(m.Failures))), "failed"))
	}
	if !m.Aborts.IsZero() && !abortsCounted {
		qs = append(qs, shareOf(sumBy(rate(s.app(m.Aborts))), "aborted"))
	}
	return qs
}

// share divides each class's rate by the service's total rate, which has
// no class label to match on.
func share(classes, total pql.Expr) pql.Expr {
	return pql.Tight(pql.Div(classes, pql.Paren(total), pql.On().GroupLeft()))
}

// notSuccess leaves out the classes that are not failures, when the
// failure counter counts every request: vLLM's is its HTTP middleware's,
// which counts every response by status class (2xx, 4xx, 5xx).
func notSuccess(class string) *labels.Matcher {
	return pql.NotRe(class, "[123]xx")
}

// requestTotals are the counters of all requests, as the runtime's
// availability SLI counts them. A runtime with no availability SLI that
// counts its succeeded and failed requests apart (LMDeploy, whose failures
// include client cancellations) has the two together; others have none.
func (s scope) requestTotals() []model.Selector {
	p := s.runtime
	if p.Availability == nil {
		m := s.svc.Metrics.Serving
		if m.Completed.IsZero() || m.Failures.IsZero() || m.Completed.Name == m.Failures.Name {
			return nil
		}
		return []model.Selector{m.Completed, m.Failures}
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
			qs = append(qs, plot(recorded(rules.ClusterErrorRatioMetric, svc, slo),
				sloLegend(slo, slo.Name+" errors (1h) in {{"+svc.Global.Label+"}}")))
			continue
		}
		qs = append(qs, plot(sloErrorRatio(model.BaseWindow, svc, slo),
			sloLegend(slo, slo.Name+": errors it counts")))
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
		plot(sumBy(pql.Increase(s.app(oom), 24*time.Hour)), "OOM events"),
	).Decimals(0).Thresholds(thresholds("green", step{float64(s.svc.Thresholds.OOMPerDay), "red"}))
}
