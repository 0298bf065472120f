package overview

import (
	"math"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// The overview reads these besides the SLO recordings of internal/plan/rules.
const (
	// ServiceInfo is 1 for each service of a fleet, labelled service,
	// team, runtime, model, dashboard and the service's selector labels
	// with their values.
	ServiceInfo = "slogen:service_info"
	// infoDashboard and infoModel are labels of ServiceInfo: the UID of
	// the dashboard the service is drawn on, and the model it serves.
	infoDashboard = "dashboard"
	infoModel     = "model"
	// alertsMetric is Prometheus's series of its pending and firing alerts.
	alertsMetric = "ALERTS"
)

// worstCount is how many services the diagnosis rows show: those with the
// least error budget left.
const worstCount = 5

// keys are the labels that tell the table's rows apart.
func (f fleet) keys() []string { return append([]string{"service", "slo"}, f.groupBy...) }

// picked is 1 for each service the team and runtime filters pick. A
// service that spans clusters records its info in each, hence the group.
func picked() pql.Expr {
	return pql.Group(pql.Metric(ServiceInfo, pql.Re("runtime", "$runtime"), pql.Re("team", "$team")), pql.By("service"))
}

// onlyPicked keeps e's series of the picked services. The product also
// drops the metric name, which a table would show as a column of its own
// and so keep apart the rows of two queries about the same SLO.
func onlyPicked(e pql.Expr) pql.Expr {
	return pql.Mul(e, picked(), pql.On("service").GroupLeft())
}

// budget is the share of each SLO's error budget left: one series per
// table row.
func budget() *parser.VectorSelector { return pql.Metric(rules.BudgetRemainingMetric) }

// rows is 1 for each row of the table, labelled as the row.
func rows() pql.Expr { return pql.Group(budget(), pql.Without()) }

// zero is 0 for each row: what a count of alerts is where none fires.
func zero() pql.Expr { return pql.Mul(rows(), pql.Num(0)) }

// everyRow is a column's values of the picked services, NaN on the rows
// it has none for: Grafana's merge joins a table's frames only by the
// fields that every frame has, and a frame has a field for a label only
// where one of its series has the label, so a column without a value for
// any split SLO would merge all that SLO's rows into one.
func (f fleet) everyRow(e pql.Expr) pql.Expr {
	return onlyPicked(pql.Or(e, pql.Mul(rows(), pql.Num(math.NaN())), pql.On(f.keys()...)))
}

// sli is each SLO's share of good events over its period, from its
// period's recordings. An SLO has the recordings of its own period only,
// so the periods' terms never meet. A fleet without SLOs reads the
// default period's, which it does not have either.
func (f fleet) sli() pql.Expr {
	periods := f.periods
	if len(periods) == 0 {
		periods = []time.Duration{30 * 24 * time.Hour}
	}
	var terms []pql.Expr
	for _, p := range periods {
		terms = append(terms, pql.Sub(pql.Num(1), pql.Div(pql.Metric(rules.Errors(p)), pql.Metric(rules.Requests(p)))))
	}
	return fold(pql.Or, terms)
}

// objective is each SLO's objective, on every row of a split SLO: the
// recording carries only service and slo.
func objective() pql.Expr {
	return pql.Mul(rows(), pql.Metric(rules.ObjectiveMetric), pql.On("service", "slo").GroupLeft())
}

// budgetLeft is the budget left, labelled with what the service's info
// says of it: its team, runtime and model, and the UID of the dashboard
// it is drawn on, which its rows link to.
func budgetLeft() pql.Expr {
	shown := []string{infoDashboard, infoModel, "runtime", "team"}
	info := pql.Group(pql.Metric(ServiceInfo, pql.Re("runtime", "$runtime"), pql.Re("team", "$team")), pql.By(append([]string{"service"}, shown...)...))
	return pql.Mul(budget(), info, pql.On("service").GroupLeft(shown...))
}

func coverage() pql.Expr { return pql.Metric(rules.CoverageMetric) }

// burn is how many times faster than its period allows each SLO spends
// its budget over w: the error ratio over the budget, 1 - objective.
func (f fleet) burn(w time.Duration) pql.Expr {
	ratio := pql.Div(f.rate(rules.Errors(w)), f.rate(rules.Requests(w)))
	allowed := pql.Sub(pql.Num(1), pql.Metric(rules.ObjectiveMetric))
	return pql.Div(pql.Paren(ratio), pql.Paren(allowed), pql.On("service", "slo").GroupLeft())
}

// rate reads a window's recorded rates. Where some service spans clusters,
// each cluster records the windows below a day, and their sum is the
// service's, each cluster's HA pair counted once: what its burn alerts
// read (rules.ErrorRatio). For any other service the sum is the series.
func (f fleet) rate(metric string) pql.Expr {
	sel := pql.Metric(metric)
	if len(f.clusters) == 0 {
		return sel
	}
	keys := f.keys()
	return pql.Sum(pql.Max(sel, pql.By(append(append([]string{}, f.clusters...), keys...)...)), pql.By(keys...))
}

// fold joins operands left to right with one operator.
func fold(op func(l, r pql.Expr, m ...pql.Match) pql.Expr, operands []pql.Expr) pql.Expr {
	e := operands[0]
	for _, o := range operands[1:] {
		e = op(e, o)
	}
	return e
}
