package overview

import (
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// firing selects the firing alerts, narrowed.
func firing(ms ...*labels.Matcher) *parser.VectorSelector {
	return pql.Metric(alertsMetric, append([]*labels.Matcher{pql.Eq("alertstate", "firing")}, ms...)...)
}

// sloAlerts counts on each row the firing alerts about its SLO: those of
// its group values, and those about the whole SLO (SLOMetricsAbsent,
// SLOTooManyGroups), which carry no group value, on every row of a split
// SLO too.
func (f fleet) sloAlerts() pql.Expr {
	keys := f.keys()
	ofRow := pql.Count(firing(pql.Neq("slo", "")), pql.By(keys...))
	n := pql.Or(pql.Add(zero(), ofRow, pql.On(keys...).GroupLeft()), zero())
	if len(f.groupBy) > 0 {
		var unsplit []*labels.Matcher
		for _, l := range f.groupBy {
			unsplit = append(unsplit, pql.Eq(l, ""))
		}
		ofSLO := pql.Count(firing(append([]*labels.Matcher{pql.Neq("slo", "")}, unsplit...)...), pql.By("service", "slo"))
		split := pql.Unless(zero(), pql.Metric(rules.BudgetRemainingMetric, unsplit...), pql.On(keys...))
		n = pql.Add(pql.Paren(n), pql.Paren(pql.Or(pql.Add(split, ofSLO, pql.On("service", "slo").GroupLeft()), zero())), pql.On(keys...))
	}
	return n
}

// serviceAlerts counts on each row the firing alerts about its service
// but no SLO: its GPU and serving alerts, and a traffic drop.
func serviceAlerts() pql.Expr {
	ofService := pql.Count(firing(pql.Eq("slo", "")), pql.By("service"))
	return pql.Or(pql.Add(zero(), ofService, pql.On("service").GroupLeft()), zero())
}
