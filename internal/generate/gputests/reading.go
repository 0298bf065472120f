package gputests

import (
	"math"
	"slices"
)

// reading is what a series reads of a scenario's world. It is comparable,
// so that a scenario samples each reading once for every service of its
// shape.
type reading struct {
	of        quantity
	good, bad float64 // requests: what a good and a failed request add
	unit      float64 // latencySum: the histogram's unit, in seconds
	name      string  // caseReading: the case's gauge's name (cases.go)
	// native: the requests are a native histogram's observations, all in
	// one bucket, not a counter (model.Input.Native)
	native bool
}

// quantity is a gauge or a counter of the world's state.
type quantity int

// First the quantities read from the state as they are (oomCount is the
// OOM counter's value, kept by the world), then the counters that grow by
// a rate each minute: values tells them apart by this order.
const (
	memUsed quantity = iota
	memFree
	temperature
	utilisation
	lastXID
	remapFailure
	exporterUp
	kvCache
	queued
	hitRatio
	caseReading // a case's gauge
	oomCount
	completed
	latencySum
	requests
	throttleNs
	pcieRetries
	dbeErrors
	remappedRowCount
	nvlinkErrorCount
	preempted
	queueSum
	prefixHits
	prefixQueries
)

// promptTokens is how many prompt tokens a request looks up in the prefix
// cache.
const promptTokens = 1000

// values samples the reading from w; total is the GPU's memory in MiB.
func (r reading) values(w world, total float64) []float64 {
	if r.of >= completed {
		vs := w.counter(r.perMinute, r.runtimes())
		return rounded(vs, counterDigits-integerDigits(slices.Max(vs)))
	}
	return rounded(w.gauge(func(s state) float64 { return r.gauge(s, total) }), 9)
}

// counterDigits are the significant digits of its largest sample that a
// counter's samples keep, all to the same decimals, so that a constant
// rate stays a run. Counters only feed rates, and the predictor brackets
// every verdict on a rate by what sampling can shift, two samples: far
// more than ten millionths. A counter whose rate changes at every sample
// (the leak test's traffic doubling each hour) takes half the bytes.
// Gauges keep every digit a scenario gives them (quiet at the threshold
// means exactly at it) to the ninth decimal, below which is float noise.
const counterDigits = 8

// integerDigits is how many digits v has before the point, at least one.
func integerDigits(v float64) int {
	if math.Abs(v) < 1 {
		return 1
	}
	return int(math.Floor(math.Log10(math.Abs(v)))) + 1
}

// rounded rounds vs to decimals places; fewer than none rounds to tens,
// hundreds and so on.
func rounded(vs []float64, decimals int) []float64 {
	scale := math.Pow10(decimals)
	for i, v := range vs {
		vs[i] = math.Round(v*scale) / scale
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
	case lastXID: // the series of testXID, there once the GPU reports it
		return gone(s.xid, s.gpuGone || s.xid != testXID)
	case remapFailure:
		return gone(s.remapFailed, s.gpuGone)
	case exporterUp:
		return s.exporterUp
	case kvCache:
		return s.kv
	case queued:
		return s.waiting
	case hitRatio:
		return s.prefixHit
	case caseReading:
		return caseGauges[r.name].read(s)
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
	case throttleNs:
		return s.throttled * 60e9
	case pcieRetries:
		return s.replaysPerMin
	case dbeErrors:
		return s.dbePerMin
	case remappedRowCount:
		return s.rowsPerMin
	case nvlinkErrorCount:
		return s.nvlinkPerMin
	case preempted:
		return s.preemptPerMin
	case queueSum:
		return s.reqPerMin * s.queueSecs / r.unit
	case prefixHits:
		return s.reqPerMin * promptTokens * s.prefixHit
	case prefixQueries:
		return s.reqPerMin * promptTokens
	default: // completed
		return s.reqPerMin
	}
}

// runtimes reports whether the counter is the runtime's, which restarts
// with it, and not dcgm-exporter's.
func (r reading) runtimes() bool {
	switch r.of {
	case throttleNs, pcieRetries, dbeErrors, remappedRowCount, nvlinkErrorCount:
		return false
	}
	return true
}
