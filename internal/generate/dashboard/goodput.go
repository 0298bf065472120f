package dashboard

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// goodputPanel draws each goodput SLO's share of good requests over the
// burn window between its two bounds: at least one minus the SLI, the
// upper bound of the bad requests that the alerts burn on, and at most
// one minus the largest share of requests that miss one bound. nil when
// the service has no goodput SLO.
func goodputPanel(s scope) cog.Builder[dashboard.Panel] {
	svc := s.svc
	var qs, objectives []query
	for _, slo := range svc.SLOs {
		if slo.Kind != model.Goodput {
			continue
		}
		qs = append(qs,
			plot(good(sloErrorRatio(burnWindow, svc, slo)), sloLegend(slo, slo.Name+" at least (the SLI)")),
			plot(good(largest(boundRatios(slo, burnWindow))), sloLegend(slo, slo.Name+" at most")))
		objectives = append(objectives, plot(s.objectiveLine(slo), s.kindLegend(fmt.Sprintf("%s objective: %s%%", slo.Name, rules.Percent(slo.Objective)), slo.Name+" objective")))
	}
	if len(qs) == 0 {
		return nil
	}
	return withLimits(timeseriesPanel("Goodput",
		"Share of requests that met every bound of each goodput SLO, over "+burnWindow.String()+". The runtimes export one histogram per latency, "+
			"so the exact share lies between the two lines: at least one minus the bad requests of every bound added (the SLI the alerts burn on), "+
			"at most one minus those of the worst bound. They meet when no request misses two bounds. Dashed red: the objective.",
		units.PercentUnit, qs...), len(qs), objectives...)
}

// largest is the greatest of the expressions, series by series.
func largest(exprs []pql.Expr) pql.Expr {
	out := exprs[0]
	for _, e := range exprs[1:] {
		out = pql.Paren(pql.Or(pql.Ge(out, e), e))
	}
	return out
}

// good is the share of good events, given the share of bad ones.
func good(bad pql.Expr) pql.Expr { return pql.Sub(pql.Num(1), pql.Paren(bad)) }

// groupNarrowing are the matchers that narrow a split SLO's series to the
// picked values of its group_by labels, as recorded does.
func groupNarrowing(slo model.SLO) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range slo.GroupBy {
		ms = append(ms, re(l, "$"+groupVar(l)))
	}
	return ms
}
