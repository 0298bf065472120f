package rules

import (
	"fmt"
	"math/big"
	"time"

	"github.com/slogen-dev/slogen/model"
)

// sliRecordings read raw series once, over the base window, and build every
// longer window by averaging that recording. Averaging the numerator and
// the denominator over the same samples weights each slice by its traffic,
// so the ratio stays exact (Sloth issue 241), and a 3d window scans one
// recorded series instead of every raw one.
func sliRecordings(svc model.Service, slo model.SLO) []Rule {
	base := model.BaseWindow
	rs := []Rule{
		{Record: Errors(base), Expr: slo.SLI.Errors, Labels: sloLabels(svc, slo)},
		{Record: Requests(base), Expr: slo.SLI.Requests, Labels: sloLabels(svc, slo)},
	}
	for _, w := range Windows()[1:] {
		rs = append(rs,
			Rule{Record: Errors(w), Expr: averaged(Errors(base), w, svc, slo), Labels: sloLabels(svc, slo)},
			Rule{Record: Requests(w), Expr: averaged(Requests(base), w, svc, slo), Labels: sloLabels(svc, slo)},
		)
	}
	return rs
}

func averaged(metric string, w time.Duration, svc model.Service, slo model.SLO) string {
	return fmt.Sprintf("avg_over_time(%s[%s])", Selector(metric, svc, slo), Window(w))
}

// periodRecordings are the error budget over the SLO period. They scan
// the longest window, so they live in a group evaluated every
// PeriodInterval instead of every cycle.
func periodRecordings(svc model.Service, slo model.SLO) []Rule {
	p := slo.Period.Duration
	base := model.BaseWindow
	budget := model.FormatRat(slo.ErrorBudget())
	return []Rule{
		{Record: Errors(p), Expr: averaged(Errors(base), p, svc, slo), Labels: sloLabels(svc, slo)},
		{Record: Requests(p), Expr: averaged(Requests(base), p, svc, slo), Labels: sloLabels(svc, slo)},
		{
			Record: BudgetRemainingMetric,
			Expr:   fmt.Sprintf("1 - (%s / %s) / %s", Selector(Errors(p), svc, slo), Selector(Requests(p), svc, slo), budget),
			Labels: sloLabels(svc, slo),
		},
		{Record: ObjectiveMetric, Expr: fmt.Sprintf("vector(%s)", model.FormatRat(slo.Objective)), Labels: sloLabels(svc, slo)},
	}
}

// PeriodInterval is how often the period recordings are evaluated. It stays
// under the 5m lookback so the series never goes stale between runs.
const PeriodInterval = "2m"

// Percent writes a ratio as a percentage: 199/200 → 99.5.
func Percent(r *big.Rat) string {
	return model.FormatRat(new(big.Rat).Mul(r, big.NewRat(100, 1)))
}
