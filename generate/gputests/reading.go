package gputests

import (
	"math"

	"github.com/slogen-dev/slogen/internal/model"
)

// reading is what a series reads of a scenario's world. It is comparable,
// so that a scenario samples each reading once for every service of its
// shape.
type reading struct {
	of        quantity
	good, bad float64 // requests: what a good and a failed request add
	unit      float64 // latencySum: the histogram's unit, in seconds
}

// quantity is a gauge or a counter of the world's state.
type quantity int

// Gauges, then counters.
const (
	memUsed quantity = iota
	memFree
	temperature
	utilisation
	lastXID
	exporterUp
	kvCache
	queued
	oomCount
	completed
	latencySum
	requests
)

// values samples the reading from w; total is the GPU's memory in MiB.
// Samples keep nine decimals: the float noise of the world's arithmetic
// is below them, and would otherwise be written out.
func (r reading) values(w world, total float64) []float64 {
	var vs []float64
	if r.of >= completed {
		vs = w.counter(r.perMinute)
	} else {
		vs = w.gauge(func(s state) float64 { return r.gauge(s, total) })
	}
	for i, v := range vs {
		vs[i] = math.Round(v*1e9) / 1e9
	}
	return vs
}

// gauge is the reading at one moment; NaN once the GPU's series are gone.
func (r reading) gauge(s state, total float64) float64 {
	switch r.of {
	case memUsed:
		return gone(s.memUsed, s.gpuGone)
	case memFree:
		return gone(total-s.memUsed, s.gpuGone)
	case temperature:
		return gone(s.temp, s.gpuGone)
	case utilisation:
		return gone(s.util, s.gpuGone)
	case lastXID:
		return gone(s.xid, s.gpuGone)
	case exporterUp:
		return s.exporterUp
	case kvCache:
		return s.kv
	case queued:
		return s.waiting
	default: // oomCount
		return s.ooms
	}
}

// perMinute is how fast a counter reading grows.
func (r reading) perMinute(s state) float64 {
	switch r.of {
	case latencySum:
		return s.reqPerMin * s.latency / r.unit
	case requests:
		return s.reqPerMin * (r.good*(1-s.errRatio) + r.bad*s.errRatio)
	default: // completed
		return s.reqPerMin
	}
}

// latencyHistogram is the runtime's latency histogram, or else its
// time-to-first-token one (Triton's only).
func latencyHistogram(svc model.Service) model.Histogram {
	if svc.Metrics.Latency.Name != "" {
		return svc.Metrics.Latency
	}
	return svc.Metrics.TTFT
}
