package rules

import (
	"fmt"
	"math/big"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// sliRecordings record the SLI's request and error rates over the alert
// windows up to 6h, the page tiers', from the raw series, so pages fire
// when the burn-rate math says. Each is labelled only with service and
// slo. The requests come first, for the errors to read (readingRequests).
// The longer windows are in periodRecordings.
func sliRecordings(svc model.Service, slo model.SLO) []Rule {
	errs, reqs := rewindower(slo.SLI.Errors), rewindower(slo.SLI.Requests)
	var rs []Rule
	for _, w := range Windows() {
		if !FromRawSeries(w) {
			continue
		}
		r := reqs.At(w, 0)
		e := readingRequests(errs.At(w, 0), r, sloSelector(Requests(w), svc, slo))
		rs = append(rs,
			Rule{Record: Requests(w), Expr: r, Labels: sloLabels(svc, slo)},
			Rule{Record: Errors(w), Expr: e, Labels: sloLabels(svc, slo)},
		)
	}
	return rs
}

// rewindower parses an SLI query for printing over other windows. The SLI
// was parsed when the spec was loaded, so a failure is a slogen bug.
func rewindower(sli string) *Rewindower {
	r, err := NewRewindower(sli)
	if err != nil {
		panic(err)
	}
	return r
}

// downsampledFrom is the shortest window read from the period group's
// samples rather than from raw series.
const downsampledFrom = 24 * time.Hour

// FromRawSeries reports whether the recording of a window reads the raw
// series (and so follows them within an evaluation) rather than the
// period group's samples.
func FromRawSeries(window time.Duration) bool { return window < downsampledFrom }

func averaged(metric string, w time.Duration, svc model.Service, slo model.SLO) string {
	return fmt.Sprintf("avg_over_time(%s[%s])", Selector(metric, svc, slo), Window(w))
}

// periodRecordings record the rates over the ticket tiers' long windows
// (a day and more) and over the period, then the error budget. They
// average samples of the 5m rates that this group takes every
// PeriodInterval: a 3d window then reads one recorded series sampled every
// few minutes instead of every raw series every minute, which is where
// Sloth-style rules spend most of their evaluation. Each sample is a 5m
// rate, so samples every 4m cover every moment; averaging numerator and
// denominator over the same samples weights every slice by its traffic, so
// the ratio stays exact (Sloth issue 241). The ticket tiers hold for an
// hour or more, so the few minutes the samples trail do not matter.
//
// The averages run here, right after the sampling, rather than every
// evaluation with the alerts, a quarter as often: every window is a whole
// number of PeriodIntervals, so it holds the same samples from one
// sampling to the next, and the alerts reading the average in between get
// what averaging again would. (Prometheus 2's ranges, closed at both
// ends, also hold the oldest sample at the very instant of sampling.)
func periodRecordings(svc model.Service, slo model.SLO) []Rule {
	base := model.BaseWindow
	rs := []Rule{
		{Record: DownsampledErrorsMetric, Expr: Selector(Errors(base), svc, slo), Labels: sloLabels(svc, slo)},
		{Record: DownsampledRequestsMetric, Expr: Selector(Requests(base), svc, slo), Labels: sloLabels(svc, slo)},
	}
	for _, w := range averagedWindows(slo) {
		rs = append(rs,
			Rule{Record: Errors(w), Expr: averaged(DownsampledErrorsMetric, w, svc, slo), Labels: sloLabels(svc, slo)},
			Rule{Record: Requests(w), Expr: averaged(DownsampledRequestsMetric, w, svc, slo), Labels: sloLabels(svc, slo)},
		)
	}
	p := slo.Period.Duration
	return append(rs,
		Rule{
			Record: BudgetRemainingMetric,
			Expr:   fmt.Sprintf("1 - (%s / %s) / %s", Selector(Errors(p), svc, slo), Selector(Requests(p), svc, slo), model.FormatRat(slo.ErrorBudget())),
			Labels: sloLabels(svc, slo),
		},
		Rule{Record: ObjectiveMetric, Expr: fmt.Sprintf("vector(%s)", model.FormatRat(slo.Objective)), Labels: sloLabels(svc, slo)},
	)
}

// averagedWindows are the windows read from the period group's samples:
// the alert windows of a day and more, then the period.
func averagedWindows(slo model.SLO) []time.Duration {
	var ws []time.Duration
	for _, w := range Windows() {
		if !FromRawSeries(w) {
			ws = append(ws, w)
		}
	}
	return append(ws, slo.Period.Duration)
}

// PeriodInterval is how often the period recordings run: just under the
// 5m lookback, so that their series never go stale between evaluations.
const PeriodInterval = "4m"

// Percent writes a ratio as a percentage: 199/200 → 99.5.
func Percent(r *big.Rat) string {
	return model.FormatRat(new(big.Rat).Mul(r, big.NewRat(100, 1)))
}
