package gputests

import (
	"math"
	"time"
)

// engine is how a Prometheus version reads a range of samples. The
// generated tests run on promtool 2.42 and on Prometheus 3's engine in
// process, so a value an annotation shows must read alike in both.
type engine struct {
	// closed: the range holds the sample at its start, as Prometheus 2
	// has it; Prometheus 3 leaves it out.
	closed bool
}

// engines are the two versions the generated tests run on.
var engines = [...]engine{{closed: true}, {closed: false}}

// window is the samples of vs a range of n samples' spacing ending at
// sample i holds, and how many spacings its start lies before the first.
func (e engine) window(vs []float64, i, n int) (in []float64, gap int) {
	start := i - n
	first := max(start, 0)
	if !e.closed && first == start {
		first++
	}
	return vs[first : i+1], first - start
}

// increase is increase() over the range of n samples' spacing ending at
// sample i of counter vs, step apart, as Prometheus computes it: the
// counter's growth (resets counted) stretched to the range's edges,
// never past where the counter would be zero; false with under two
// samples. The versions differ in the order they bound the stretch to
// the start: 2.42 by the zero point first, 3 by half a spacing first.
func (e engine) increase(vs []float64, i, n int, step time.Duration) (float64, bool) {
	in, gap := e.window(vs, i, n)
	if len(in) < 2 {
		return 0, false
	}
	grew := in[len(in)-1] - in[0]
	for j := 1; j < len(in); j++ {
		if in[j] < in[j-1] {
			grew += in[j-1]
		}
	}
	spacing := step.Seconds()
	sampled := float64(len(in)-1) * spacing
	toStart := float64(gap) * spacing
	toZero := toStart
	if grew > 0 && in[0] >= 0 {
		toZero = sampled * in[0] / grew
	}
	// Farther from the start than a spacing and a tenth, the series
	// starts within the range: it stretches half a spacing.
	near := func(d float64) float64 {
		if d >= 1.1*spacing {
			return spacing / 2
		}
		return d
	}
	if e.closed {
		toStart = near(min(toStart, toZero))
	} else {
		toStart = min(near(toStart), toZero)
	}
	// The range ends at a sample: nothing to stretch at its end.
	return grew * (sampled + toStart) / sampled, true
}

// rate is rate(): increase per second of the range.
func (e engine) rate(vs []float64, i, n int, step time.Duration) (float64, bool) {
	v, ok := e.increase(vs, i, n, step)
	return v / (time.Duration(n) * step).Seconds(), ok
}

// avgOverTime is avg_over_time(): the mean of the range's samples.
func (e engine) avgOverTime(vs []float64, i, n int) (float64, bool) {
	in, _ := e.window(vs, i, n)
	if len(in) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, v := range in {
		sum += v
	}
	return sum / float64(len(in)), true
}

// agreed is the value both engines compute, when they compute it alike;
// false where one cannot compute it or they differ (a range that holds a
// change in its first spacing, which only 2.42 reads). Alike allows for
// the last bits of float arithmetic, far below the four digits an
// annotation writes.
func agreed(on func(engine) (float64, bool)) (float64, bool) {
	a, okA := on(engines[0])
	b, okB := on(engines[1])
	if !okA || !okB || math.Abs(a-b) > 1e-9*math.Max(math.Abs(a), math.Abs(b)) {
		return 0, false
	}
	return a, true
}
