package ruletests

import (
	"math"
	"time"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/model"
)

// traffic is a scenario for one SLO: a steady request rate, an error ratio
// before the change and another after it. Times are minutes from the change.
type traffic struct {
	perMinute     float64 // requests per minute
	history       float64 // minutes of data before the change
	before, after float64 // error ratios
}

// ratio is the exact error ratio over the w minutes ending x minutes after
// the change, counting only data that exists.
func (tr traffic) ratio(x, w float64) float64 {
	span := math.Min(w, tr.history+x)
	if span <= 0 {
		return math.NaN()
	}
	bad := math.Min(math.Max(x, 0), span)
	return (bad*tr.after + (span-bad)*tr.before) / span
}

// events is what the low-traffic guard sees: the window's average request
// rate times its length. Before a window is full of data, that is more
// than the requests it holds.
func (tr traffic) events(x, w float64) float64 {
	if tr.history+x <= 0 {
		return 0
	}
	return tr.perMinute * w
}

// Lags bound how far the recorded windows trail the exact ones, in
// minutes. Windows read from raw series trail by the input's sampling and
// an evaluation, plus one to spare. Windows read from the period group's
// samples trail by up to the base window too, and by one more evaluation,
// as group order is not fixed.
const (
	rawLag         = 3.0
	downsampledLag = 8.0
)

func lag(w model.Windows) float64 {
	if rules.FromRawSeries(w.Long) {
		return rawLag
	}
	return downsampledLag
}

// bounds says when a tier's alert starts firing: not before earliest, and
// surely by latest, in minutes after the change. never is true when it
// cannot fire within limit.
type bounds struct {
	earliest, latest float64
	never            bool
}

// predict brackets a tier's firing time. Prometheus 3 reads one sample
// fewer per window than 2.42 (left-open ranges), so the early bound also
// considers windows one evaluation shorter; the late bound lets the
// recordings trail by their lag and adds one evaluation for `for`.
func predict(tr traffic, slo model.SLO, t model.Tier, a model.Alerting, limit float64) bounds {
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
		r := func(win float64) bool { return above(tr.ratio(x, win)) || above(tr.ratio(x, win-shrink)) }
		return r(long) && r(short) && tr.events(x, long) >= float64(a.MinEvents)
	}
	hold := a.For[t].Minutes()
	first := crossing(func(x float64) bool { return holds(x, 1) }, limit)
	if math.IsInf(first, 1) {
		return bounds{never: true}
	}
	l := lag(w)
	surely := crossing(func(x float64) bool { return holds(x-l, 0) }, limit+l)
	return bounds{earliest: first + hold - 1, latest: surely + hold + 1}
}

// crossing is the first time at which a condition that stays true once
// true holds, to a hundredth of a minute; +Inf if it never does within
// limit. The scenarios' ratios and request counts only grow, so bisection
// finds it.
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
