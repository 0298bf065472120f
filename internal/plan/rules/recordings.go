package rules

import (
	"math/big"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// sliRecordings record the SLI's request and error rates over the alert
// windows up to 6h, the page tiers', from the raw series, so pages fire
// when the burn-rate math says. Each is labelled only with service and
// slo. The requests come first, for the errors to read (see sliQuery).
// The longer windows are in periodRecordings.
func sliRecordings(svc model.Service, slo model.SLO) []Rule {
	q := newSLIQuery(svc, slo)
	var rs []Rule
	for _, w := range Windows() {
		if FromRawSeries(w) {
			rs = append(rs,
				Rule{Record: Requests(w), Expr: q.requests(w), Labels: sloLabels(svc, slo)},
				Rule{Record: Errors(w), Expr: q.errors(w), Labels: sloLabels(svc, slo)},
			)
		}
	}
	return rs
}

// downsampledFrom is the shortest window read from the period group's
// samples rather than from raw series.
const downsampledFrom = 24 * time.Hour

// FromRawSeries reports whether the recording of a window reads the raw
// series (and so follows them within an evaluation) rather than the
// period group's samples.
func FromRawSeries(window time.Duration) bool { return window < downsampledFrom }

// periodRecordings record the rates over the ticket tiers' long windows
// (a day and more) and over the SLOs' periods, then their error budgets.
// They average samples of the 5m rates that this group takes every
// PeriodInterval: a 3d window then reads one recorded series sampled every
// few minutes instead of every raw series every minute, which is where
// Sloth-style rules spend most of their evaluation. Each sample is a 5m
// rate, so samples every 4m cover every moment; averaging numerator and
// denominator over the same samples weights every slice by its traffic, so
// the ratio stays exact (Sloth issue 241); until the samples cover a long
// window, its errors count the rest as error-free (coveredErrors). The
// samples trail by up to a PeriodInterval, which the tickets make up for
// with the last 5m's errors (burnRatio).
//
// The averages run here, right after the sampling, rather than every
// evaluation with the alerts, a quarter as often: every window is a whole
// number of PeriodIntervals, so it holds the same samples from one
// sampling to the next, and the alerts reading the average in between get
// what averaging again would. (Prometheus 2's ranges, closed at both
// ends, also hold the oldest sample at the very instant of sampling.)
//
// The samples and the alert windows' averages are taken for all of the
// service's SLOs at once, by one rule each: they read recorded series,
// which carry the slo label, and a rule costs about as much to evaluate for
// three series as for one. Each SLO has its own period and budget.
func periodRecordings(svc model.Service) []Rule {
	base := model.BaseWindow
	rs := []Rule{
		{Record: DownsampledErrorsMetric, Expr: baseRates(Errors(base), svc), Labels: serviceLabels(svc)},
		{Record: DownsampledRequestsMetric, Expr: baseRates(Requests(base), svc), Labels: serviceLabels(svc)},
	}
	for _, w := range Windows() {
		if !FromRawSeries(w) {
			rs = append(rs,
				Rule{Record: Errors(w), Expr: coveredErrors(ServiceSeries(DownsampledErrorsMetric, svc), w), Labels: serviceLabels(svc)},
				Rule{Record: Requests(w), Expr: averaged(ServiceSeries(DownsampledRequestsMetric, svc), w), Labels: serviceLabels(svc)},
			)
		}
	}
	rs = append(rs, coverageRecordings(svc)...)
	for _, slo := range svc.SLOs {
		rs = append(rs, sloPeriodRecordings(svc, slo)...)
	}
	return rs
}

// sloPeriodRecordings are an SLO's rates over its period, the share of
// its error budget left and its objective, for dashboards.
//
// The budget left is 1 − error ratio × coverage / budget: the errors seen
// so far against the budget of the whole period, at the traffic seen. Once
// the recordings cover the period, that is the usual 1 − error ratio /
// budget; before, when Prometheus is younger than the period or keeps less
// of it, the usual figure divides an hour's outage by an hour's traffic
// and reads about −2500 % after a 9-minute outage at 99.5 %. This one
// reads 96 %: that outage cost 4 % of a 30d budget.
func sloPeriodRecordings(svc model.Service, slo model.SLO) []Rule {
	p := slo.Period.Duration
	ratio := pql.Paren(pql.Div(SLOSeries(Errors(p), svc, slo), SLOSeries(Requests(p), svc, slo)))
	spent := pql.Div(pql.Mul(ratio, SLOSeries(CoverageMetric, svc, slo)), decimal(slo.ErrorBudget()))
	return []Rule{
		{Record: Errors(p), Expr: averaged(SLOSeries(DownsampledErrorsMetric, svc, slo), p), Labels: sloLabels(svc, slo)},
		{Record: Requests(p), Expr: averaged(SLOSeries(DownsampledRequestsMetric, svc, slo), p), Labels: sloLabels(svc, slo)},
		{Record: BudgetRemainingMetric, Expr: pql.Sub(pql.Num(1), spent), Labels: sloLabels(svc, slo)},
		{Record: ObjectiveMetric, Expr: pql.Call("vector", decimal(slo.Objective)), Labels: sloLabels(svc, slo)},
	}
}

// coveredErrors is the error rate over a long window that counts the part
// of it the period group has no samples for (the rules are younger than
// the window, or Prometheus keeps less) as error-free at the traffic seen:
// the samples' sum over as many samples as the whole window holds. The
// requests stay the average of the samples seen, so the error ratio is the
// ratio seen times the window's coverage, as the budget's is (see
// sloPeriodRecordings). Averaging the samples alone would weigh a
// ten-minute outage on rules deployed two hours before as if it were the
// whole day, and open a day's ticket that a full day of history would not.
// Once the window is covered, this is the average.
func coveredErrors(sel *parser.VectorSelector, w time.Duration) pql.Expr {
	samples := pql.Call("clamp_min", pql.Call("count_over_time", pql.Range(sel, w)), pql.Num(float64(w/PeriodInterval)))
	return pql.Div(pql.Call("sum_over_time", pql.Range(sel, w)), samples)
}

func averaged(sel *parser.VectorSelector, w time.Duration) pql.Expr {
	return pql.Call("avg_over_time", pql.Range(sel, w))
}

// PeriodInterval is how often the period recordings run: just under the
// 5m lookback, so that their series never go stale between evaluations.
const PeriodInterval = 4 * time.Minute

// Percent writes a ratio as a percentage: 199/200 → 99.5.
func Percent(r *big.Rat) string {
	return model.FormatRat(new(big.Rat).Mul(r, big.NewRat(100, 1)))
}
