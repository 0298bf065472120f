package ruletests

import (
	"fmt"
	"math"
	"slices"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// recoveryWatch is how long after an outage its test watches for pages
// that start late: the longest short window of a page tier.
const recoveryWatch = 30

// fullOutageSLO is the availability SLO when a full outage can be staged:
// every request fails and is counted, while the latency histograms, which
// observe only requests that finish, see none. The availability SLO may
// share no series with another SLO, or one could not fail while the other
// goes silent.
func fullOutageSLO(svc model.Service) (model.SLO, bool) {
	slos := testable(svc)
	i := slices.IndexFunc(slos, func(s model.SLO) bool { return s.Kind == model.Availability })
	if i < 0 {
		return model.SLO{}, false
	}
	for _, o := range slos {
		if o.Name != slos[i].Name && !independent([]model.SLO{slos[i], o}) {
			return model.SLO{}, false
		}
	}
	return slos[i], true
}

// outagePhases are the inputs of a full outage of length minutes: an
// hour healthy, the outage (outagePhase), then healthy again while the
// test watches the recovery.
func outagePhases(avail model.SLO, perMinute float64, length int) func(model.SLO) []phase {
	return func(slo model.SLO) []phase {
		healthy := func(minutes int) phase {
			return phase{minutes: minutes, perMinute: perMinute, ratio: rules.HealthyRatio(slo)}
		}
		return []phase{healthy(historyMinutes), outagePhase(avail, slo, perMinute, length), healthy(recoveryWatch)}
	}
}

// outagePhase is an SLO's inputs for length minutes of a full outage: the
// availability SLO fails every request, the others see no request.
func outagePhase(avail, slo model.SLO, perMinute float64, length int) phase {
	if slo.Name == avail.Name {
		return phase{minutes: length, perMinute: perMinute, ratio: 1}
	}
	return phase{minutes: length, ratio: rules.HealthyRatio(slo)}
}

// fullOutage: after an hour of healthy traffic every request fails for
// length minutes, then all is well again. The availability SLO pages when
// the math says; the latency SLOs, whose histograms see no request, raise
// no no-data alert; the request counter still counts, so no traffic alert
// fires either; the page does not start after the errors stop, nor
// start again after a gap, and where its slow tier still burns once the
// fast one has surely cleared, it is the same one alert still firing.
func fullOutage(svc model.Service, avail model.SLO, length int) testfile.Test {
	pm := rules.HealthyPerMinute(svc)
	tr := rules.Traffic{Start: -historyMinutes, Stretches: []rules.Stretch{
		{Until: 0, PerMinute: pm, Ratio: rules.HealthyRatio(avail)},
		{Until: float64(length), PerMinute: pm, Ratio: 1},
		{Until: math.Inf(1), PerMinute: pm, Ratio: rules.HealthyRatio(avail)},
	}}
	s := schedule{avail.Name: rules.PredictTiers(svc, avail, tr, float64(length), 1)}
	fast := s.page(avail.Name)
	var at []float64
	for _, m := range []float64{math.Ceil(fast.Earliest) - 1, firstSettled(svc, s, fast.Latest), float64(length)} {
		if m >= 0 && m <= float64(length) {
			at = append(at, m)
		}
	}
	recovered := historyMinutes + length
	end := float64(recovered + recoveryWatch)
	checks := burnTest(svc, s, historyMinutes, 1, at...)
	name := fmt.Sprintf("a full outage of %s: %s pages %s, the SLIs that see no request raise no no-data or traffic alert, and no page starts after it ends",
		genfile.Duration(minutes(float64(length))), describe(avail), pageSpan(fast, float64(length)))
	if goesOn, x, ok := pageGoesOn(svc, avail, tr, s, float64(length)); ok {
		checks = append(checks, goesOn)
		name += fmt.Sprintf("; %s after it, when the fast tier has cleared, the slow tier holds the same page", genfile.Duration(minutes(x-float64(length))))
	}
	return testfile.Test{
		Name:        name,
		Interval:    "1m",
		InputSeries: inputs(svc, outagePhases(avail, pm, length)),
		AlertTests:  checks,
		ExprTests:   append([]testfile.ExprTest{neverActive(svc, end, noDataAlerts)}, nothingStartsAfter(svc, float64(recovered), end)...),
	}
}

// pageSpan says when the page fires, if it must within limit minutes.
func pageSpan(fast rules.Bounds, limit float64) string {
	if fast.Never || fast.Latest > limit {
		return "as the math says"
	}
	return fmt.Sprintf("%s to %s after it starts", genfile.Duration(minutes(fast.Earliest)), genfile.Duration(minutes(fast.Latest)))
}

func trafficDropTestable(svc model.Service) bool {
	return svc.Traffic != nil && svc.Traffic.Inputs != nil && svc.Alerting.TrafficDropSeverity != ""
}

// trafficDrop: steady traffic, then none. The traffic alert fires once the
// drop has lasted its window, which reads no increase from the last
// request on (one evaluation sooner on Prometheus 3, whose windows leave
// out their first sample). Where a full outage can be staged, it follows
// the silence: the burn-rate page still comes on time over windows that
// hold no request, the traffic alert resolves, and no recording is left
// NaN.
func trafficDrop(svc model.Service) testfile.Test {
	d := svc.Alerting.TrafficDropFor.Minutes()
	// Enough requests that the window an hour earlier holds min_events.
	pm := math.Max(rules.HealthyPerMinute(svc), math.Ceil(2*float64(svc.Alerting.MinEvents)/d))
	history := historyMinutes + int(d) // the hour-earlier window is full
	gap := max(30, int(d)+5)
	stop := float64(history)
	checks := []testfile.AlertTest{trafficDropTest(svc, stop+d-2, false), trafficDropTest(svc, stop+d, true), trafficDropTest(svc, stop+float64(gap), true)}
	exprs := []testfile.ExprTest{}
	phases := func(slo model.SLO) []phase {
		return []phase{{minutes: history, perMinute: pm, ratio: rules.HealthyRatio(slo)}, {minutes: gap, ratio: rules.HealthyRatio(slo)}}
	}
	end := stop + float64(gap)
	name := fmt.Sprintf("no request for %dm fires %s %s after the last one", gap, rules.TrafficDropAlert, genfile.Duration(svc.Alerting.TrafficDropFor))
	if avail, ok := fullOutageSLO(svc); ok {
		tr := rules.Traffic{Start: -float64(history + gap), Stretches: []rules.Stretch{
			{Until: -float64(gap), PerMinute: pm, Ratio: rules.HealthyRatio(avail)},
			{Until: 0, PerMinute: 0, Ratio: 0},
			{Until: math.Inf(1), PerMinute: pm, Ratio: 1},
		}}
		s := schedule{avail.Name: rules.PredictTiers(svc, avail, tr, 24*60, 1)}
		fast := s.page(avail.Name)
		fire := firstSettled(svc, s, fast.Latest)
		phases = func(slo model.SLO) []phase {
			return []phase{{minutes: history, perMinute: pm, ratio: rules.HealthyRatio(slo)}, {minutes: gap, ratio: rules.HealthyRatio(slo)}, outagePhase(avail, slo, pm, int(fire))}
		}
		end += fire
		checks = append(checks, burnTest(svc, s, stop+float64(gap), 1, math.Ceil(fast.Earliest)-1, fire)...)
		checks = append(checks, trafficDropTest(svc, end, false))
		exprs = append(exprs, noNaN(svc, end))
		name += fmt.Sprintf("; a full outage after it pages %s, and no recording stays NaN", pageSpan(fast, fire))
	}
	absent := alertFilter{labels.MustNewMatcher(labels.MatchEqual, labels.AlertName, rules.NoDataAlert)}
	return testfile.Test{
		Name:        name,
		Interval:    "1m",
		InputSeries: inputs(svc, phases),
		AlertTests:  checks,
		ExprTests:   append(exprs, neverActive(svc, end, absent)),
	}
}

// lowTraffic: three requests an hour, one in three failing, for twelve
// hours. The guard keeps every page tier quiet while the long windows hold
// fewer requests than min_events; a rate of zero between requests is not
// missing data, and so little traffic never drops. Tickets may open: over
// their three-day window the failures are real.
func lowTraffic(svc model.Service) testfile.Test {
	const length, every = 12 * 60, 20
	var series []testfile.Series
	seen := map[string]bool{}
	add := func(ins []model.Input) {
		native, classic := nativeStairs(svc, ins, length, every, seen)
		series = append(series, native...)
		for _, in := range classic {
			if k := in.Series.String(); !seen[k] {
				seen[k] = true
				series = append(series, testfile.Series{Series: k, Values: testfile.Samples(stairs(in, length, every))})
			}
		}
	}
	for _, slo := range testable(svc) {
		add(slo.SLI.Inputs)
	}
	if svc.Traffic != nil {
		add(svc.Traffic.Inputs)
	}
	return testfile.Test{
		Name:        fmt.Sprintf("three requests an hour, one in three failing, for 12h pages no one: below the %d-request guard, and quiet is not down", svc.Alerting.MinEvents),
		Interval:    "1m",
		InputSeries: series,
		ExprTests:   []testfile.ExprTest{neverActive(svc, length, pages)},
	}
}

// stairs is a counter over length minutes that grows by one request every
// `every` minutes, every third failing.
func stairs(in model.Input, length, every int) []float64 {
	vs := make([]float64, length+1)
	v, n := 0.0, 0
	for m := range vs {
		if m%every == every/2 {
			n++
			if n%3 == 0 {
				v += in.Bad
			} else {
				v += in.Good
			}
		}
		vs[m] = v
	}
	return vs
}
