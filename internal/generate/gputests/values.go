package gputests

import (
	"time"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// valueAt is the alert's value at t as Prometheus computes it, for the
// alerts whose annotations show it, from the samples the test feeds, in
// the rules' own arithmetic: a gauge's last sample at or before t, or a
// rate or increase over a range as both versions the tests run on
// compute it (rates.go). Other alerts' values are not predicted.
func (pl *planned) valueAt(alert string, t time.Duration) (float64, bool) {
	i := int(t / pl.world.step)
	if c, ok := cases[alert]; ok {
		return c.value(func(r reading) float64 { return pl.samples(r)[i] })
	}
	if v, ok := pl.gaugeAt(alert, i); ok {
		return v, true
	}
	return agreed(func(e engine) (float64, bool) { return pl.rateAt(e, alert, i) })
}

// gaugeAt is the value of the alerts that compare a gauge, at sample i.
func (pl *planned) gaugeAt(alert string, i int) (float64, bool) {
	sample := func(q quantity) float64 { return pl.samples(reading{of: q})[i] }
	switch alert {
	case gpualerts.MemoryHigh:
		used, free := sample(memUsed), sample(memFree)
		return used / (used + free), true
	case gpualerts.KVCacheHigh:
		return sample(kvCache), true
	case gpualerts.QueueBacklog:
		return sample(queued), true
	case gpualerts.TemperatureHigh:
		return sample(temperature), true
	case gpualerts.UtilizationHigh:
		return sample(utilisation), true
	case gpualerts.XIDErrors: // the code, older exporters' only record of it
		return sample(lastXID), true
	}
	return 0, false
}

// rateAt is the value of the alerts that compare a rate or an increase,
// at sample i, as engine e reads their series. Histograms' sums are read
// in seconds (unit 1): the rules scale them back by the same unit.
// GPURowRemapFailure, InferenceInputErrors and the leak alerts show no
// value (gpualerts says why).
func (pl *planned) rateAt(e engine, alert string, i int) (float64, bool) {
	step := pl.world.step
	increase := func(r reading, w time.Duration) (float64, bool) {
		return e.increase(pl.samples(r), i, int(w/step), step)
	}
	rate := func(r reading, w time.Duration) (float64, bool) {
		return e.rate(pl.samples(r), i, int(w/step), step)
	}
	switch alert {
	case gpualerts.Throttled: // nanoseconds a second; the scenarios hold power and heat alike
		v, ok := rate(reading{of: throttleNs}, gpualerts.ThrottleWindow)
		return v / 1e9, ok
	case gpualerts.PCIeReplays:
		v, ok := rate(reading{of: pcieRetries}, gpualerts.ThrottleWindow)
		return v * 60, ok
	case gpualerts.Preemptions:
		v, ok := rate(reading{of: preempted}, gpualerts.EngineWindow)
		return v * 60, ok
	case gpualerts.QueueTimeHigh:
		return ratio(rate, reading{of: queueSum, unit: 1}, reading{of: completed}, gpualerts.EngineWindow)
	case gpualerts.OOMEvents:
		return increase(reading{of: oomCount}, gpualerts.Baseline)
	case gpualerts.ECCErrors:
		return increase(reading{of: dbeErrors}, gpualerts.HealthWindow)
	case gpualerts.NVLinkErrors: // two fields count them: nvlinkRecovery and nvlinkCRC
		v, ok := increase(reading{of: nvlinkErrorCount}, gpualerts.HealthWindow)
		return 2 * v, ok
	case gpualerts.Saturated: // the mean latency
		return ratio(rate, reading{of: latencySum, unit: 1}, reading{of: completed}, gpualerts.DiagnosisWindow)
	case gpualerts.PrefixCacheCold: // the hit ratio
		if pl.hitsCounted {
			return ratio(rate, reading{of: prefixHits}, reading{of: prefixQueries}, gpualerts.DiagnosisWindow)
		}
		return e.avgOverTime(pl.samples(reading{of: hitRatio}), i, int(gpualerts.DiagnosisWindow/step))
	}
	return 0, false
}

// ratio is one rate over another, both over w.
func ratio(rate func(reading, time.Duration) (float64, bool), num, den reading, w time.Duration) (float64, bool) {
	a, okA := rate(num, w)
	b, okB := rate(den, w)
	return a / b, okA && okB && b > 0
}

// samples are the reading's values, as the test's series hold them.
func (pl *planned) samples(r reading) []float64 { return r.values(pl.world, pl.total) }
