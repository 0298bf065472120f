package gputests

import (
	"math"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
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
// slowdown again, which is no diagnosis, and then episodes, each of which
// one diagnosis alone must recognise. The prefix cache's episodes ride
// along (cacheChanges): no diagnosis reads the cache.
func diagnosisScenario(p predictor) scenario {
	// An episode lasts until its alert has surely fired; the gap lets the
	// hour's windows and the alerts' `for` forget it.
	const interval, lasts, gap = 5 * time.Minute, 100 * time.Minute, 80 * time.Minute
	base := healthy(p)
	base.memUsed = math.Floor(p.total * 0.4)
	errorsUp := math.Min(1, 10*base.errRatio)
	saturated := func(s state) state {
		s.reqPerMin, s.latency, s.errRatio = s.reqPerMin/2, 2*s.latency, errorsUp
		return s
	}
	failing := func(s state) state { s.errRatio = errorsUp; return s }
	leaking := func(s state) state { s.memUsed = math.Floor(s.memUsed * 1.3); return s }
	c := prefixCacheChanges(p, base)
	// Day one has the first episode's slowdown, and what the cache did.
	// The last two test only the cache, quiet in the one before them:
	// they need no gap, and each costs every rule of the file 100 minutes.
	eps := []episode{
		{yesterday: steady(saturated), today: c.warming(steady(saturated)), restart: true},
		{today: c.cold(steady(saturated)), after: gap},
		{today: c.cold(steady(failing)), restart: true, after: gap},
		{yesterday: c.barely(nil), today: c.barely(c.cold(steady(leaking))), after: gap},
		{today: c.cold(steady(c.busier))},
		{yesterday: steady(c.trickle), today: c.cold(steady(c.trickle))},
	}
	starts, w := dayTwo(base, eps, interval, lasts)
	all := []string{gpualerts.Saturated, gpualerts.InputErrors, gpualerts.MemoryLeakSuspect}
	others := func(fires string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(a string) bool { return a == fires })
	}
	// The prefix cache stays quiet where its alert, without the guard the
	// episode tests, would have fired: 75m in, and near the end, where
	// every window the blur can shift is still inside the episode.
	quietCache := func(i int) expectation {
		return expectation{from: starts[i], quiet: []string{gpualerts.PrefixCacheCold},
			checks: []time.Duration{starts[i] + 75*time.Minute, starts[i] + lasts - p.blur(w)}}
	}
	return scenario{
		eval: DiagnosisEvaluationInterval,
		name: "against the same hour yesterday: yesterday's slowdown again, after a restart whose prefix cache warms, is no diagnosis; " +
			"then saturation (its prefix cache cold with traffic halved: no cold start), input errors after a restart whose cache stays cold (a cold start too) " +
			"and a leak (beside a cache that barely hit yesterday) are each diagnosed alone; a cold cache with traffic doubled, and with a trickle of traffic both days, is no cold start",
		world: w,
		expect: []expectation{
			{from: starts[0], quiet: append(all, gpualerts.PrefixCacheCold), checks: []time.Duration{starts[0] + time.Hour, starts[0] + lasts}},
			{from: starts[1], fires: gpualerts.Saturated, quiet: others(gpualerts.Saturated)}, quietCache(1),
			{from: starts[2], fires: gpualerts.InputErrors, quiet: others(gpualerts.InputErrors)},
			{from: starts[2], fires: gpualerts.PrefixCacheCold},
			// A step up in VRAM is no leak to the trend alert either.
			{from: starts[3], fires: gpualerts.MemoryLeakSuspect, quiet: append(others(gpualerts.MemoryLeakSuspect), gpualerts.MemoryLeak)}, quietCache(3),
			quietCache(4), quietCache(5),
		},
	}
}
