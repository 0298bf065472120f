package gputests

import (
	"time"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// health evaluates the GPU health alerts: rates and increases over a
// window, on the world as it is and with its changes moved by the blur
// either way, as sampling and the window's edges can move them.
func (p predictor) health(alert string, w world, t time.Duration) (verdict, bool) {
	th := p.th
	var on func(world) verdict
	switch alert {
	case gpualerts.Throttled:
		on = func(w world) verdict {
			return p.rateOver(w, t, gpualerts.ThrottleWindow, func(s state) float64 { return s.throttled }, th.ThrottlePercent/100)
		}
	case gpualerts.PCIeReplays:
		on = func(w world) verdict {
			return p.rateOver(w, t, gpualerts.ThrottleWindow, func(s state) float64 { return s.replaysPerMin }, th.PCIeReplaysPerMinute)
		}
	case gpualerts.ECCErrors:
		on = func(w world) verdict { return p.rose(w, t, func(s state) float64 { return s.dbePerMin }) }
	case gpualerts.NVLinkErrors:
		on = func(w world) verdict { return p.rose(w, t, func(s state) float64 { return s.nvlinkPerMin }) }
	case gpualerts.RowRemapFailure:
		on = func(w world) verdict {
			failed := sure(!w.at(t).gpuGone && w.at(t).remapFailed > 0)
			return failed.or(p.rose(w, t, func(s state) float64 { return s.rowsPerMin }))
		}
	case gpualerts.Preemptions:
		on = func(w world) verdict {
			return p.rateOver(w, t, gpualerts.EngineWindow, func(s state) float64 { return s.preemptPerMin }, th.PreemptionsPerMinute)
		}
	case gpualerts.QueueTimeHigh:
		on = func(w world) verdict { return p.meanQueue(w, t) }
	case gpualerts.XIDErrors:
		on = func(w world) verdict { return sure(!w.at(t).gpuGone && w.at(t).xid > 0 && p.xidChanged(w, t)) }
	default:
		return verdict{}, false
	}
	b := p.blur(w)
	return oneOf(on(w.shifted(-b)), on(w), on(w.shifted(b))), true
}

// rateOver is whether f's mean over the window before t, per minute,
// passes limit; unknown while the window is partly before the data.
func (p predictor) rateOver(w world, t, window time.Duration, f func(state) float64, limit float64) verdict {
	switch w.coverage(t-window, t) {
	case none:
		return sure(false)
	case partial:
		return unknown
	}
	return sure(w.integral(t-window, t, f)/window.Minutes() > limit)
}

// rose is whether a counter growing by f a minute grew within
// HealthWindow before t.
func (p predictor) rose(w world, t time.Duration, f func(state) float64) verdict {
	if w.coverage(t-gpualerts.HealthWindow, t) == none {
		return sure(false)
	}
	return sure(w.integral(t-gpualerts.HealthWindow, t-w.step, f) > 0)
}

// xidChanged is whether the last XID changed between two samples within
// HealthWindow before t.
func (p predictor) xidChanged(w world, t time.Duration) bool {
	for u := t; u > t-gpualerts.HealthWindow && u >= w.step; u -= w.step {
		if w.at(u).xid != w.at(u-w.step).xid {
			return true
		}
	}
	return false
}

// meanQueue is whether the requests of the window before t waited longer
// than queue_seconds on average.
func (p predictor) meanQueue(w world, t time.Duration) verdict {
	from := t - gpualerts.EngineWindow
	switch w.coverage(from, t) {
	case none:
		return sure(false)
	case partial:
		return unknown
	}
	waited := w.integral(from, t, func(s state) float64 { return s.reqPerMin * s.queueSecs })
	return sure(waited/w.integral(from, t, func(s state) float64 { return s.reqPerMin }) > p.th.QueueSeconds)
}
