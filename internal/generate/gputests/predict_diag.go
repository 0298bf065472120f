package gputests

import (
	"math"
	"time"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// quadrant is a diagnosis signal over the window ending off before t, as
// the recording rules compute it.
func (p predictor) quadrant(name string, w world, t, off time.Duration) (float64, coverage) {
	to := t - off
	from := to - gpualerts.DiagnosisWindow
	if c := w.coverage(from, to); c != full {
		return 0, c
	}
	req := w.integral(from, to, func(s state) float64 { return s.reqPerMin })
	switch name {
	case gpualerts.LatencyMean:
		return w.integral(from, to, func(s state) float64 { return s.reqPerMin * s.latency }) / req, full
	case gpualerts.Throughput:
		return req / gpualerts.DiagnosisWindow.Seconds(), full
	case gpualerts.ErrorRatio:
		return w.integral(from, to, func(s state) float64 { return s.reqPerMin * s.errRatio }) / req, full
	case gpualerts.PrefixCacheHitRatio:
		if p.hitsCounted {
			return w.integral(from, to, func(s state) float64 { return s.reqPerMin * s.prefixHit }) / req, full
		}
		return w.integral(from, to, func(s state) float64 { return s.prefixHit }) / gpualerts.DiagnosisWindow.Minutes(), full
	default: // gpualerts.MemoryUsed
		return w.integral(from, to, func(s state) float64 { return s.memUsed }) / gpualerts.DiagnosisWindow.Minutes(), full
	}
}

// pair is a quadrant now and a day earlier; ok false with v the verdict
// when either is not fully known.
func (p predictor) pair(name string, w world, t, off time.Duration) (now, then float64, v verdict, ok bool) {
	now, c1 := p.quadrant(name, w, t, 0)
	then, c2 := p.quadrant(name, w, t, off)
	switch {
	case c1 == none || c2 == none:
		return 0, 0, sure(false), false
	case c1 == partial || c2 == partial:
		return 0, 0, unknown, false
	}
	return now, then, verdict{}, true
}

// diagnosis evaluates a diagnosis alert on one reading of the scenario.
func (p predictor) diagnosis(alert string, w world, t time.Duration) verdict {
	vals := map[string][2]float64{}
	for _, name := range []string{gpualerts.LatencyMean, gpualerts.Throughput, gpualerts.ErrorRatio, gpualerts.MemoryUsed, gpualerts.PrefixCacheHitRatio} {
		now, then, v, ok := p.pair(name, w, t, gpualerts.Baseline)
		if !ok {
			return v
		}
		vals[name] = [2]float64{now, then}
	}
	l, tp, e, m := vals[gpualerts.LatencyMean], vals[gpualerts.Throughput], vals[gpualerts.ErrorRatio], vals[gpualerts.MemoryUsed]
	hit := vals[gpualerts.PrefixCacheHitRatio]
	latencyIsNormal := l[0] <= gpualerts.LatencyNormal*l[1]
	errorsAreUp := e[0] > gpualerts.ErrorsUp*e[1] && e[0] > p.budget
	trafficIsFlat := tp[0] >= gpualerts.ThroughputLow*tp[1] && tp[0] <= gpualerts.ThroughputHigh*tp[1]
	switch alert {
	case gpualerts.Saturated:
		return sure(l[0] > gpualerts.LatencyUp*l[1] && tp[0] < gpualerts.ThroughputLow*tp[1])
	case gpualerts.InputErrors:
		return sure(errorsAreUp && latencyIsNormal)
	case gpualerts.MemoryLeakSuspect:
		ok := m[0] > gpualerts.MemoryUp*m[1] && latencyIsNormal && trafficIsFlat
		if p.errors {
			ok = ok && !errorsAreUp
		}
		return sure(ok)
	case gpualerts.PrefixCacheCold:
		yesterdayCounts := hit[1] >= gpualerts.PrefixCacheHitFloor && tp[1]*60 >= gpualerts.PrefixCacheMinPerMinute
		return sure(hit[0] < p.th.PrefixCacheHitVsYesterday*hit[1] && yesterdayCounts && trafficIsFlat)
	}
	return unknown
}

// leak evaluates the memory-leak alert: both the hour's and the last ten
// minutes' trend run out of memory within the horizon, and traffic is flat.
func (p predictor) leak(w world, t time.Duration) verdict {
	if w.at(t).gpuGone {
		return sure(false)
	}
	trend := oneOf(p.trend(w, t, true), p.trend(w, t, false))
	b := p.blur(w)
	flat := oneOf(p.flat(w.shifted(-b), t), p.flat(w, t), p.flat(w.shifted(b), t))
	return trend.and(flat)
}

func (p predictor) trend(w world, t time.Duration, closed bool) verdict {
	long, ok1 := p.predict(w, t, dcgm.TrendWindow, closed)
	short, ok2 := p.predict(w, t, gpualerts.LeakShortWindow, closed)
	if !ok1 || !ok2 {
		return unknown
	}
	return p.above(long).and(p.above(short))
}

// above compares a prediction with the GPU's memory; a hair's breadth
// either way is left undecided, as float rounding may differ.
func (p predictor) above(v float64) verdict {
	if math.Abs(v-p.total) < 1e-6*p.total {
		return unknown
	}
	return sure(v > p.total)
}

func (p predictor) flat(w world, t time.Duration) verdict {
	now, before, v, ok := p.pair(gpualerts.Throughput, w, t, gpualerts.DiagnosisWindow)
	if !ok {
		return v
	}
	return sure(now <= gpualerts.ThroughputHigh*before && now >= gpualerts.ThroughputLow*before)
}

// predict is predict_linear(FB_USED[window], horizon) at t: a least-squares
// line through the window's samples, read at t + horizon. A closed window
// includes the sample at its start (Prometheus 2), an open one not (3).
func (p predictor) predict(w world, t, window time.Duration, closed bool) (float64, bool) {
	var xs, ys []float64
	for _, at := range w.samples() {
		if at > t || at < t-window || (!closed && at == t-window) {
			continue
		}
		xs = append(xs, (at - t).Seconds())
		ys = append(ys, w.at(at).memUsed)
	}
	if len(xs) < 2 {
		return 0, false
	}
	slope, intercept := regression(xs, ys)
	return intercept + slope*dcgm.LeakHorizon.Seconds(), true
}

func regression(xs, ys []float64) (slope, intercept float64) {
	n := float64(len(xs))
	var sx, sy, sxy, sxx float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
		sxy += xs[i] * ys[i]
		sxx += xs[i] * xs[i]
	}
	slope = (n*sxy - sx*sy) / (n*sxx - sx*sx)
	return slope, (sy - slope*sx) / n
}
