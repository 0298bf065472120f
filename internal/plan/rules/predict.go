package rules

import (
	"math"

	"github.com/slogen-dev/slogen/internal/model"
)

// Bounds says when a tier's alert starts firing: not before Earliest, and
// surely by Latest, in minutes after the change. Never is true when it
// cannot fire within the limit predicted over.
type Bounds struct {
	Earliest, Latest float64
	Never            bool
}

// Lag bounds how far the recorded windows trail the exact ones, in
// minutes, at one evaluation every step minutes. Windows read from raw
// series trail by the input's sampling and an evaluation, plus one to
// spare. Windows read from the period group's samples trail by up to the
// base window too, and by one more evaluation, as group order is not
// fixed.
func Lag(w model.Windows, step float64) float64 {
	if FromRawSeries(w.Long) {
		return 2 + step
	}
	return model.BaseWindow.Minutes() + 1 + 2*step
}

// Predict brackets when a tier's condition fires its rule (which holds it
// for the rule's `for`) when rules are evaluated every step minutes, the
// period group's too, as promtool evaluates them: every group at every
// evaluation, whatever its interval (only the tickets' windows read the
// period group's samples).
// Prometheus 3 reads one sample fewer per window than 2.42 (left-open
// ranges), so the early bound also considers windows one evaluation
// shorter; the late bound lets the recordings trail by their lag and adds
// an evaluation for `for`. Evaluating less often only delays an alert, so
// the early bound holds at any step.
func Predict(tr Traffic, slo model.SLO, t model.Tier, a model.Alerting, limit, step float64) Bounds {
	threshold, capped := slo.ErrorRatioThreshold(t)
	th, _ := threshold.Float64()
	w := model.TierWindows[t]
	long, short := w.Long.Minutes(), w.Short.Minutes()
	above := func(r float64) bool {
		if capped {
			return r >= th
		}
		return r > th
	}
	holds := func(x float64, shrink float64) bool {
		r := func(win float64) bool {
			return above(tr.WindowRatio(x, win, step)) || above(tr.WindowRatio(x, win-shrink, step))
		}
		return r(long) && r(short) && tr.Events(x, long) >= float64(a.MinEvents)
	}
	hold := a.Hold(model.RuleOf(t)).Minutes()
	first := crossing(func(x float64) bool { return holds(x, 1) }, limit)
	if math.IsInf(first, 1) {
		return Bounds{Never: true}
	}
	l := Lag(w, step)
	surely := crossing(func(x float64) bool { return holds(x-l, 0) }, limit+l)
	return Bounds{Earliest: first + hold - 1, Latest: surely + hold + step}
}

// crossing is the first time at which a condition that stays true once
// true holds, to a hundredth of a minute; +Inf if it never does within
// limit. Up to limit, the scenarios' ratios and request counts only grow,
// so bisection finds it.
func crossing(holds func(x float64) bool, limit float64) float64 {
	lo, hi := -60.0, limit
	if !holds(hi) {
		return math.Inf(1)
	}
	for hi-lo > 0.01 {
		if mid := (lo + hi) / 2; holds(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// PredictTiers is Predict for each tier of the SLO.
func PredictTiers(svc model.Service, slo model.SLO, tr Traffic, limit, step float64) map[model.Tier]Bounds {
	out := map[model.Tier]Bounds{}
	for _, t := range model.Tiers {
		out[t] = Predict(tr, slo, t, svc.Alerting, limit, step)
	}
	return out
}

// RuleBounds brackets when a burn rule fires, from its tiers' bounds: as
// soon as either tier's condition has held for the rule's `for`. known is
// false when ts lacks one of its tiers.
func RuleBounds(ts map[model.Tier]Bounds, b model.BurnRule) (out Bounds, known bool) {
	out = Bounds{Never: true}
	for _, t := range b.Tiers {
		tb, ok := ts[t]
		switch {
		case !ok:
			return Bounds{}, false
		case tb.Never:
		case out.Never:
			out = tb
		default:
			out.Earliest, out.Latest = math.Min(out.Earliest, tb.Earliest), math.Min(out.Latest, tb.Latest)
		}
	}
	return out, true
}

// FirstPage brackets when the page fires, in minutes after every request
// to the SLO starts failing after healthy traffic (HealthyRatio at
// HealthyPerMinute) that every page window holds: on a Prometheus that
// keeps 6h of the service's series, as vet says and backtests see. The
// generated tests, whose series start an hour before the outage, may see
// the slow tier page sooner, over the hour it holds.
func FirstPage(svc model.Service, slo model.SLO) (earliest, latest float64) {
	history := model.TierWindows[model.PageSlow].Long.Minutes()
	tr := ChangeAt(HealthyPerMinute(svc), history, HealthyRatio(slo), 1)
	b, _ := RuleBounds(PredictTiers(svc, slo, tr, 24*60, 1), model.PageRule)
	return b.Earliest, b.Latest
}
