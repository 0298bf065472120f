package gputests

import (
	"math"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/generate/gpualerts"
)

// leakScenarios: VRAM climbs steadily towards full after two hours of
// flat traffic (the leak alert compares the last hour with the one
// before); it fires, and stays quiet when traffic doubles each hour.
func leakScenarios(p predictor) []scenario {
	const start = 2*time.Hour + 10*time.Minute
	base := healthy(p)
	from := math.Floor(p.total / 2)
	perMinute := math.Ceil((p.total - from) / 200) // full in 200 minutes
	flat := world{step: time.Minute, at: func(t time.Duration) state {
		s := base
		s.memUsed = math.Min(p.total-1, from+perMinute*math.Max(0, (t-start).Minutes()))
		return s
	}}
	busier := world{step: time.Minute, at: func(t time.Duration) state {
		s := flat.at(t)
		if ramp := t - (start - time.Hour); ramp > 0 {
			s.reqPerMin = base.reqPerMin * math.Pow(2, ramp.Hours())
		}
		return s
	}}
	// Hours long, they evaluate every five minutes, in the diagnosis
	// test's file. The alert's `for` is timed to within the sampling's
	// blur either way, which five-minute steps do not widen.
	return []scenario{
		{name: gpualerts.MemoryLeak + " fires when VRAM climbs towards full while traffic is flat", world: withLength(flat, start+3*time.Hour), expect: fire(gpualerts.MemoryLeak),
			eval: DiagnosisEvaluationInterval},
		{name: gpualerts.MemoryLeak + " stays quiet when VRAM climbs with traffic", world: withLength(busier, start+3*time.Hour), expect: []expectation{{quiet: []string{gpualerts.MemoryLeak}}},
			eval: DiagnosisEvaluationInterval},
	}
}

// diagnosisScenario is one long test, as every one must run past a day
// and each evaluation step runs every rule of the file: a day of steady
// traffic with a slowdown in its second hour, then on day two that same
// slowdown again, which is no diagnosis, and then three episodes, each of
// which one diagnosis alone must recognise.
func diagnosisScenario(p predictor) scenario {
	// An episode lasts until its alert has surely fired; the gap lets the
	// hour's windows and the alerts' `for` forget it.
	const interval, episode, gap = 5 * time.Minute, 100 * time.Minute, 80 * time.Minute
	base := healthy(p)
	base.memUsed = math.Floor(p.total * 0.4)
	errorsUp := math.Min(1, 10*base.errRatio)
	saturated := func(s state) state {
		s.reqPerMin, s.latency, s.errRatio = s.reqPerMin/2, 2*s.latency, errorsUp
		return s
	}
	failing := func(s state) state { s.errRatio = errorsUp; return s }
	leaking := func(s state) state { s.memUsed = math.Floor(s.memUsed * 1.3); return s }
	slowdown := time.Hour // into each day: the earliest a day-ago window is full
	starts := []time.Duration{gpualerts.Baseline + slowdown}
	for range 3 {
		starts = append(starts, starts[len(starts)-1]+episode+gap)
	}
	changes := []func(state) state{saturated, saturated, failing, leaking}
	w := world{step: interval, length: starts[3] + episode, at: func(t time.Duration) state {
		if t >= slowdown && t < slowdown+episode {
			return saturated(base)
		}
		for i, at := range starts {
			if t >= at && t < at+episode {
				return changes[i](base)
			}
		}
		return base
	}}
	all := []string{gpualerts.Saturated, gpualerts.InputErrors, gpualerts.MemoryLeakSuspect}
	others := func(fires string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(a string) bool { return a == fires })
	}
	return scenario{
		eval:  DiagnosisEvaluationInterval,
		name:  "against the same hour yesterday: yesterday's slowdown again is no diagnosis; then saturation, input errors and a leak are each diagnosed alone",
		world: w,
		expect: []expectation{
			{from: starts[0], quiet: all, checks: []time.Duration{starts[0] + time.Hour, starts[0] + episode}},
			{from: starts[1], fires: gpualerts.Saturated, quiet: others(gpualerts.Saturated)},
			{from: starts[2], fires: gpualerts.InputErrors, quiet: others(gpualerts.InputErrors)},
			// A step up in VRAM is no leak to the trend alert either.
			{from: starts[3], fires: gpualerts.MemoryLeakSuspect, quiet: append(others(gpualerts.MemoryLeakSuspect), gpualerts.MemoryLeak)},
		},
	}
}
