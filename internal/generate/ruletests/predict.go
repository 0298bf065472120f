package ruletests

import (
	"math"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// traffic is what one SLO's series see: stretches of steady request rate
// and error ratio, one after another from minute start (zero or less).
// Times are minutes from the change a test is about.
type traffic struct {
	start   float64
	stretch []stretch
}

// stretch is steady traffic until a minute; the last one lasts for ever.
type stretch struct {
	until     float64
	perMinute float64 // requests per minute
	ratio     float64 // error ratio
}

// changeAt is history minutes at one error ratio, then another from the
// change on, at a steady request rate.
func changeAt(perMinute, history, before, after float64) traffic {
	return traffic{start: -history, stretch: []stretch{{0, perMinute, before}, {math.Inf(1), perMinute, after}}}
}

// steadyTraffic is one rate and ratio from minute zero on.
func steadyTraffic(perMinute, ratio float64) traffic {
	return traffic{stretch: []stretch{{math.Inf(1), perMinute, ratio}}}
}

// counted is the requests and the failed ones from minute a to b.
func (tr traffic) counted(a, b float64) (requests, failed float64) {
	from := tr.start
	for _, s := range tr.stretch {
		lo, hi := math.Max(a, from), math.Min(b, s.until)
		if hi > lo {
			requests += (hi - lo) * s.perMinute
			failed += (hi - lo) * s.perMinute * s.ratio
		}
		from = s.until
	}
	return requests, failed
}

// ratio is the exact error ratio over the w minutes ending x minutes after
// the change, counting only data that exists; NaN when it holds no request.
func (tr traffic) ratio(x, w float64) float64 {
	requests, failed := tr.counted(math.Max(x-w, tr.start), x)
	if requests == 0 {
		return math.NaN()
	}
	return failed / requests
}

// coveredRatio is the error ratio as the windows read from the period
// group's samples see it: the part of the window before the data starts
// counts as error-free at the traffic seen, so the ratio seen shrinks by
// the share of the window the data covers.
func (tr traffic) coveredRatio(x, w float64) float64 {
	from := math.Max(x-w, tr.start)
	return tr.ratio(x, w) * math.Min((x-from)/w, 1)
}

// windowRatio is the error ratio the recording of a window of w minutes
// holds, as ratio or coveredRatio says.
func (tr traffic) windowRatio(x, w float64) float64 {
	if rules.FromRawSeries(time.Duration(w * float64(time.Minute))) {
		return tr.ratio(x, w)
	}
	return tr.coveredRatio(x, w)
}

// events is what the low-traffic guard sees: the average request rate over
// the part of the window that holds data, times the window's length.
// Before a window is full of data, that is more than the requests it holds.
func (tr traffic) events(x, w float64) float64 {
	from := math.Max(x-w, tr.start)
	if x <= from {
		return 0
	}
	requests, _ := tr.counted(from, x)
	return requests / (x - from) * w
}

// Lags bound how far the recorded windows trail the exact ones, in
// minutes, at one evaluation every step minutes. Windows read from raw
// series trail by the input's sampling and an evaluation, plus one to
// spare. Windows read from the period group's samples trail by up to the
// base window too, and by one more evaluation, as group order is not
// fixed.
func lag(w model.Windows, step float64) float64 {
	if rules.FromRawSeries(w.Long) {
		return 2 + step
	}
	return model.BaseWindow.Minutes() + 1 + 2*step
}

// bounds says when a tier's alert starts firing: not before earliest, and
// surely by latest, in minutes after the change. never is true when it
// cannot fire within limit.
type bounds struct {
	earliest, latest float64
	never            bool
}

// predict brackets when a tier's condition fires its rule (which holds it
// for the rule's `for`) when rules are evaluated every
// step minutes. Prometheus 3 reads one sample fewer per window than 2.42
// (left-open ranges), so the early bound also considers windows one
// evaluation shorter; the late bound lets the recordings trail by their
// lag and adds an evaluation for `for`. Evaluating less often only delays
// an alert, so the early bound holds at any step.
func predict(tr traffic, slo model.SLO, t model.Tier, a model.Alerting, limit, step float64) bounds {
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
		r := func(win float64) bool { return above(tr.windowRatio(x, win)) || above(tr.windowRatio(x, win-shrink)) }
		return r(long) && r(short) && tr.events(x, long) >= float64(a.MinEvents)
	}
	hold := a.Hold(model.RuleOf(t)).Minutes()
	first := crossing(func(x float64) bool { return holds(x, 1) }, limit)
	if math.IsInf(first, 1) {
		return bounds{never: true}
	}
	l := lag(w, step)
	surely := crossing(func(x float64) bool { return holds(x-l, 0) }, limit+l)
	return bounds{earliest: first + hold - 1, latest: surely + hold + step}
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

func minutes(m float64) time.Duration {
	return time.Duration(math.Ceil(m)) * time.Minute
}

// FirstPage brackets when the page fires, in minutes after every request
// to the SLO starts failing after healthy traffic (a tenth of the budget,
// 1000 requests a minute) that every page window holds: on a Prometheus
// that keeps 6h of the service's series, as vet says and backtests see.
// The generated tests, whose series start an hour before the outage, may
// see the slow tier page sooner, over the hour it holds.
func FirstPage(svc model.Service, slo model.SLO) (earliest, latest float64) {
	history := model.TierWindows[model.PageSlow].Long.Minutes()
	tr := changeAt(perMinute(svc), history, healthyRatio(slo), 1)
	b, _ := ruleBounds(tiers(svc, slo, tr, 24*60, 1), model.PageRule)
	return b.earliest, b.latest
}

// ruleBounds brackets when a burn rule fires, from its tiers' bounds: as
// soon as either tier's condition has held for the rule's `for`. known is
// false when ts lacks one of its tiers.
func ruleBounds(ts map[model.Tier]bounds, b model.BurnRule) (out bounds, known bool) {
	out = bounds{never: true}
	for _, t := range b.Tiers {
		tb, ok := ts[t]
		switch {
		case !ok:
			return bounds{}, false
		case tb.never:
		case out.never:
			out = tb
		default:
			out.earliest, out.latest = math.Min(out.earliest, tb.earliest), math.Min(out.latest, tb.latest)
		}
	}
	return out, true
}
