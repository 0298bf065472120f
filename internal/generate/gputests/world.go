package gputests

import (
	"math"
	"time"
)

// state is the service at one moment of a test scenario: what its GPU
// and runtime gauges read, and the rates its counters grow at from then
// until the next sample.
type state struct {
	memUsed     float64 // MiB on the service's GPU
	temp, util  float64 // °C, %
	xid         float64 // last XID, 0 for none
	gpuGone     bool    // dcgm-exporter's series of the GPU have stopped
	exporterUp  float64 // the exporter's up
	kv, waiting float64 // KV-cache ratio, queued requests
	reqPerMin   float64 // completed requests a minute
	errRatio    float64 // failed / all requests
	latency     float64 // mean seconds per request
	ooms        float64 // OOM events so far (a counter's value)
	// The GPU's health: the share of the time its clocks are held down
	// by power, a failed row remap (0 or 1), and how many PCIe retries,
	// double-bit ECC errors, uncorrectably remapped rows and NVLink
	// errors it counts a minute.
	throttled, remapFailed float64
	// The engine: preemptions a minute, and the seconds a request waits
	// before it is scheduled.
	preemptPerMin, queueSecs                           float64
	replaysPerMin, dbePerMin, rowsPerMin, nvlinkPerMin float64
	// The share of prompt tokens found in the prefix cache, 0–1.
	prefixHit float64
	// lines is how many fatal lines of one kind the pod has logged, the
	// Collector's count of them; 0 is no count, its series not yet there.
	lines float64
	// restarts is how often the runtime has restarted: at each, its
	// counters start again from zero.
	restarts int
}

// world is a scenario: its input interval, its length and the state at
// every moment. Series are its samples; predictions read it directly.
type world struct {
	step, length time.Duration
	at           func(t time.Duration) state
}

// samples are the times of the input samples, from 0 to length.
func (w world) samples() []time.Duration {
	var ts []time.Duration
	for t := time.Duration(0); t <= w.length; t += w.step {
		ts = append(ts, t)
	}
	return ts
}

// gauge samples a reading; NaN stops the series there.
func (w world) gauge(read func(state) float64) []float64 {
	var vs []float64
	for _, t := range w.samples() {
		vs = append(vs, read(w.at(t)))
	}
	return vs
}

// counter integrates a per-minute rate: each sample adds the rate in
// force since the one before. A counter of the runtime's (resets) starts
// again from zero when it restarts, which adds what it counted since.
func (w world) counter(perMinute func(state) float64, resets bool) []float64 {
	ts := w.samples()
	vs := make([]float64, len(ts))
	for i := 1; i < len(ts); i++ {
		before := vs[i-1]
		if resets && w.at(ts[i]).restarts != w.at(ts[i-1]).restarts {
			before = 0
		}
		vs[i] = before + perMinute(w.at(ts[i-1]))*w.step.Minutes()
	}
	return vs
}

// integral is ∫ f(state) dt over [from, to) in minutes, on the sample
// grid: the same sums the counters hold. Before 0 there is no data.
func (w world) integral(from, to time.Duration, f func(state) float64) float64 {
	sum := 0.0
	for t := from; t < to; t += w.step {
		if t >= 0 {
			sum += f(w.at(t)) * w.step.Minutes()
		}
	}
	return sum
}

// coverage is how much of a window [from, to) has samples.
type coverage int

const (
	full    coverage = iota
	partial          // rate() extrapolates; the value is anyone's guess
	none             // fewer than two samples: a rate over it is absent
)

func (w world) coverage(from, to time.Duration) coverage {
	have, all := 0, 0
	for t := from; t <= to; t += w.step {
		all++
		if t >= 0 {
			have++
		}
	}
	switch {
	case have < 2:
		return none
	case have < all:
		return partial
	}
	return full
}

// shifted is the world with every change happening d later (d < 0:
// earlier), to bound what sampling and window edges can blur.
func (w world) shifted(d time.Duration) world {
	return world{step: w.step, length: w.length, at: func(t time.Duration) state { return w.at(max(t-d, 0)) }}
}

func gone(v float64, stopped bool) float64 {
	if stopped {
		return math.NaN()
	}
	return v
}
