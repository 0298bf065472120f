package rules

import (
	"fmt"
	"math/big"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// sliRecordings record the SLI's error and request rates over every alert
// window, each labelled only with service and slo. Windows up to 6h, the
// page tiers', read the raw series, so pages fire when the burn-rate math
// says. Windows of a day and more average the period group's samples of
// the 5m rates: a 3d window then reads one recorded series sampled every
// few minutes instead of every raw series, which is where Sloth-style rules
// spend most of their evaluation. Averaging numerator and denominator over
// the same samples weights every slice by its traffic, so the ratio stays
// exact (Sloth issue 241); the ticket tiers it serves hold for an hour or
// more, so the few minutes the samples trail do not matter.
func sliRecordings(svc model.Service, slo model.SLO) []Rule {
	errs, reqs := rewindower(slo.SLI.Errors), rewindower(slo.SLI.Requests)
	var rs []Rule
	for _, w := range Windows() {
		e, r := errs.At(w, 0), reqs.At(w, 0)
		if !FromRawSeries(w) {
			e, r = averaged(DownsampledErrorsMetric, w, svc, slo), averaged(DownsampledRequestsMetric, w, svc, slo)
		}
		rs = append(rs,
			Rule{Record: Errors(w), Expr: e, Labels: sloLabels(svc, slo)},
			Rule{Record: Requests(w), Expr: r, Labels: sloLabels(svc, slo)},
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
