package rules

import (
	"fmt"
	"maps"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// noDataAlert fires when the series behind an SLO are gone. Burn-rate
// alerts cannot: with no series there is no ratio to compare. It asks
// whether the raw series exist, not whether anything is counted, so a
// quiet service, or a latency histogram that sees no request while every
// request fails, is not mistaken for a broken scrape.
func noDataAlert(svc model.Service) Rule {
	var terms []pql.Expr
	for _, slo := range svc.SLOs {
		terms = append(terms, absentSLO(slo))
	}
	return Rule{
		Alert:       NoDataAlert,
		Expr:        pql.Chain(parser.LOR, pql.Match{}, terms...),
		For:         forClause(svc.Alerting.NoDataFor),
		Labels:      alertLabels(svc, svc.Alerting.PageSeverity),
		Annotations: NoDataAnnotations(svc),
	}
}

// absentSLO is 1, labelled with the SLO, when none of the series its
// request rate reads exists; for a goodput SLO, when that holds for any
// of its bounds, whose histograms may come and go apart (vLLM's TPOT
// arrived a release after its TTFT). count() keeps absent() from copying
// the selectors' matchers into the alert's labels. A ratio SLO whose
// total reads no series (vector(1): an imported ratio of time) is asked
// for its bad events' series instead.
func absentSLO(slo model.SLO) parser.Expr {
	var absent pql.Expr
	for _, p := range slo.SLI.Measured() {
		series := anyOf(p.Requests)
		if series == nil {
			series = anyOf(p.Errors)
		}
		absent = or(absent, pql.Call("absent", pql.Count(series)))
	}
	return pql.Call("label_replace", absent, pql.Str("slo"), pql.Str(slo.Name), pql.Str(""), pql.Str(""))
}

// anyOf is the union of the raw series an expression reads.
func anyOf(e parser.Expr) parser.Expr {
	var union parser.Expr
	seen := map[string]bool{}
	parser.Inspect(pql.Copy(e), func(n parser.Node, _ []parser.Node) error {
		vs, ok := n.(*parser.VectorSelector)
		if !ok || seen[vs.String()] {
			return nil
		}
		seen[vs.String()] = true
		union = or(union, vs)
		return nil
	})
	return union
}

// or adds e to union, which is nil before its first member.
func or(union, e pql.Expr) pql.Expr {
	if union == nil {
		return e
	}
	return pql.Or(union, e)
}

// NoDataLabels are the labels of the no-data alert for one SLO.
func NoDataLabels(svc model.Service, slo model.SLO) map[string]string {
	ls := maps.Clone(alertLabels(svc, svc.Alerting.PageSeverity))
	ls["slo"] = slo.Name
	return ls
}

// NoDataAnnotations are the no-data alert's annotations: one rule serves
// every SLO, and each alert names its own from its slo label.
func NoDataAnnotations(svc model.Service) map[string]string {
	return withRunbook(svc, NoDataAlert, map[string]string{
		"summary": fmt.Sprintf("the metrics behind the %s SLO of %s are gone", SLOTemplate, EscapeTemplate(svc.Name)),
		"description": fmt.Sprintf("No series that the %s SLO of %s reads exists any more: the service, its exporter or its scrape job is down, or the spec's selector no longer matches. Its burn-rate alerts cannot fire without data.",
			SLOTemplate, EscapeTemplate(svc.Name)),
	})
}

// NoDataAnnotationsAt are the no-data alert's annotations as Prometheus
// expands them for one SLO: what tests expect.
func NoDataAnnotationsAt(svc model.Service, slo model.SLO) map[string]string {
	return expandSLO(NoDataAnnotations(svc), slo)
}

// expandSLO is annotations that name the SLO by SLOTemplate, expanded for
// one SLO.
func expandSLO(a map[string]string, slo model.SLO) map[string]string {
	for k, v := range a {
		a[k] = strings.ReplaceAll(v, SLOTemplate, slo.Name)
	}
	return a
}

// trafficDropAlert fires when the service got no request at all for a
// while, though it had traffic an hour earlier: an outage in front of the
// service (a dead gateway, a broken route) that no burn-rate alert sees,
// since requests that never arrive fail nothing. It reads the counter of
// every request, failed or not, so a full outage, which still counts its
// failures, does not fire it; and a service whose normal traffic is a few
// requests an hour never had min_events in the hour-earlier window.
func trafficDropAlert(svc model.Service) (Rule, bool) {
	a := svc.Alerting
	if svc.Traffic == nil || a.TrafficDropSeverity == "" {
		return Rule{}, false
	}
	d := a.TrafficDropFor
	before := pql.Mul(pql.Paren(Rewindow(svc.Traffic.Requests, d, trafficDropOffset)), pql.Num(d.Seconds()))
	dropped := pql.Block(pql.Chain(parser.LAND, pql.On(),
		pql.EqOp(Rewindow(svc.Traffic.Requests, d, 0), pql.Num(0)),
		pql.Ge(before, pql.Num(float64(TrafficDropMinimum(svc))))))
	return Rule{
		Alert:       TrafficDropAlert,
		Expr:        pql.Chain(parser.LAND, pql.On(), dropped, pql.Count(anyOf(svc.Traffic.Requests))).Indent("", "  "),
		Labels:      TrafficDropLabels(svc),
		Annotations: TrafficDropAnnotations(svc),
	}, true
}

// TrafficDropMinimum is the fewest requests the hour-earlier window must
// hold: min_events, and at least one, so that no traffic then and none now
// is not a drop.
func TrafficDropMinimum(svc model.Service) int { return max(svc.Alerting.MinEvents, 1) }

// TrafficDropLabels are the labels of the traffic-drop alert.
func TrafficDropLabels(svc model.Service) map[string]string {
	return alertLabels(svc, svc.Alerting.TrafficDropSeverity)
}

// TrafficDropAnnotations are the traffic-drop alert's static annotations.
func TrafficDropAnnotations(svc model.Service) map[string]string {
	d := genfile.Duration(svc.Alerting.TrafficDropFor)
	return withRunbook(svc, TrafficDropAlert, map[string]string{
		"summary": EscapeTemplate(fmt.Sprintf("%s has had no request for %s", svc.Name, d)),
		"description": EscapeTemplate(fmt.Sprintf("No request reached %s in the last %s, though the same %s an hour earlier held at least %d. Requests that never arrive fail nothing, so no burn-rate alert sees this: check what sends the service its traffic (gateway, ingress, DNS, clients).",
			svc.Name, d, d, TrafficDropMinimum(svc))),
	})
}
