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
// recorded series instead of every raw one. Windows of a day and more
// average the period group's samples of the base rates: an eighth of the
// samples, for ticket tiers whose for: is an hour or more.
func sliRecordings(svc model.Service, slo model.SLO) []Rule {
	base := model.BaseWindow
	rs := []Rule{
		{Record: Errors(base), Expr: slo.SLI.Errors, Labels: sloLabels(svc, slo)},
		{Record: Requests(base), Expr: slo.SLI.Requests, Labels: sloLabels(svc, slo)},
	}
	for _, w := range Windows()[1:] {
		errs, reqs := Errors(base), Requests(base)
		if w >= downsampledFrom {
			errs, reqs = DownsampledErrorsMetric, DownsampledRequestsMetric
		}
		rs = append(rs,
			Rule{Record: Errors(w), Expr: averaged(errs, w, svc, slo), Labels: sloLabels(svc, slo)},
			Rule{Record: Requests(w), Expr: averaged(reqs, w, svc, slo), Labels: sloLabels(svc, slo)},
		)
	}
	return rs
}

// downsampledFrom is the shortest window read from the period group's samples.
const downsampledFrom = 24 * time.Hour

func averaged(metric string, w time.Duration, svc model.Service, slo model.SLO) string {
	return fmt.Sprintf("avg_over_time(%s[%s])", Selector(metric, svc, slo), Window(w))
}

// periodRecordings are the error budget over the SLO period. Averaging
// the base recording over 30 days would scan 86,400 samples per series at a
// 30s interval; instead this group, evaluated every PeriodInterval, first
// samples the base rates and averages those: an eighth of the samples, an
// eighth as often. Each sample is a 5m rate, so samples every 4m cover all
// of the period; over a day or more the overlaps weigh every moment alike.
func periodRecordings(svc model.Service, slo model.SLO) []Rule {
	p := slo.Period.Duration
	base := model.BaseWindow
	budget := model.FormatRat(slo.ErrorBudget())
	return []Rule{
		{Record: DownsampledErrorsMetric, Expr: Selector(Errors(base), svc, slo), Labels: sloLabels(svc, slo)},
		{Record: DownsampledRequestsMetric, Expr: Selector(Requests(base), svc, slo), Labels: sloLabels(svc, slo)},
		{Record: Errors(p), Expr: averaged(DownsampledErrorsMetric, p, svc, slo), Labels: sloLabels(svc, slo)},
		{Record: Requests(p), Expr: averaged(DownsampledRequestsMetric, p, svc, slo), Labels: sloLabels(svc, slo)},
		{
			Record: BudgetRemainingMetric,
			Expr:   fmt.Sprintf("1 - (%s / %s) / %s", Selector(Errors(p), svc, slo), Selector(Requests(p), svc, slo), budget),
			Labels: sloLabels(svc, slo),
		},
		{Record: ObjectiveMetric, Expr: fmt.Sprintf("vector(%s)", model.FormatRat(slo.Objective)), Labels: sloLabels(svc, slo)},
	}
}

// PeriodInterval is how often the period recordings run: just under the
// 5m lookback, so that their series never go stale between evaluations.
const PeriodInterval = "4m"

// Percent writes a ratio as a percentage: 199/200 → 99.5.
func Percent(r *big.Rat) string {
	return model.FormatRat(new(big.Rat).Mul(r, big.NewRat(100, 1)))
}
