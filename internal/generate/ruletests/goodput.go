package ruletests

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// goodputStalls: every request of a goodput SLO misses one of its bounds
// after an hour of healthy traffic, each bound alone and then all at once.
// Each stall pages when the math on the upper bound says, and no sooner:
// a request that misses two bounds counts twice in a window that also
// holds good requests, so all at once pages sooner than one alone, but
// never more bad requests than requests, so the SLI reads exactly one
// once every request fails. They stand in for the goodput SLOs' full
// outage. A bound's stall that an outage of other SLOs already stages
// through the series they share gets no test of its own.
func goodputStalls(svc model.Service, outages []outageGroup) []testfile.Test {
	var out []testfile.Test
	for _, slo := range testable(svc) {
		if slo.Kind != model.Goodput {
			continue
		}
		every := make([]int, len(slo.Bounds))
		staged := outageShares(svc, slo, outages)
		for i := range slo.Bounds {
			every[i] = i
			if !stagedByOutage(svc, slo, i, staged) {
				out = append(out, goodputStall(svc, slo, i))
			}
		}
		out = append(out, goodputStall(svc, slo, every...), boundVanishes(svc, slo))
	}
	return out
}

// outageShares are, for each outage, the bad share of each of the
// goodput SLO's bounds, phase by phase, that the outage makes it see.
func outageShares(svc model.Service, slo model.SLO, outages []outageGroup) [][][]float64 {
	out := make([][][]float64, len(outages))
	for i, g := range outages {
		out[i] = newWorld(svc, failing(svc, g.slos, stallLength)).shares(slo)
	}
	return out
}

// stagedByOutage reports whether one of the outages, by the shares it
// makes the goodput SLO see, stages the stall of its bound alone.
func stagedByOutage(svc model.Service, slo model.SLO, bound int, staged [][][]float64) bool {
	stalled := withInputs(svc, slo.Name, slo.SLI.Stalling(bound))
	want := newWorld(stalled, failing(svc, []model.SLO{slo}, stallLength)).shares(sloNamed(stalled, slo.Name))
	return slices.ContainsFunc(staged, func(got [][]float64) bool {
		return slices.EqualFunc(got, want, func(a, b []float64) bool {
			return slices.EqualFunc(a, b, func(x, y float64) bool { return near(x, y, 1e-9) })
		})
	})
}

// stallLength is how long the worlds compared for staging run: any
// length will do, as it changes only the last stretch's end.
const stallLength = 24 * 60

// goodputStall is the stall of the bounds given, by index. Its series run
// until the base window after the stall began holds nothing but stall, so
// that the SLI can be read there.
func goodputStall(svc model.Service, slo model.SLO, bounds ...int) testfile.Test {
	stalled := withInputs(svc, slo.Name, slo.SLI.Stalling(bounds...))
	slo = sloNamed(stalled, slo.Name)
	seen := trafficOf(newWorld(stalled, failing(svc, []model.SLO{slo}, 24*60)).seen(slo), historyMinutes)
	tiers := rules.PredictTiers(stalled, slo, seen, 24*60, 1)
	allStalled := historyMinutes + 2*model.BaseWindow.Minutes()
	t := outage(stalled, outageGroup{[]model.SLO{slo}, tiers}, int(allStalled)+1)
	fast, _ := rules.RuleBounds(tiers, model.PageRule)
	missed := "its " + boundNames(slo, bounds) + " bound alone"
	if len(bounds) > 1 {
		missed = "every bound at once (" + boundNames(slo, bounds) + ")"
	}
	t.Name = fmt.Sprintf("%s: every request missing %s pages %s, and the SLI counts no more bad requests than requests", describe(slo), missed, pageSpan(fast, math.Inf(1)))
	onlyThis := alertFilter{labels.MustNewMatcher(labels.MatchEqual, "slo", slo.Name), labels.MustNewMatcher(labels.MatchEqual, "tier", model.PageRule.Name)}
	if notYet := math.Ceil(fast.Earliest) - 1; notYet > 0 {
		t.ExprTests = append(t.ExprTests, neverActive(stalled, historyMinutes+notYet, onlyThis))
	}
	allBad := func(ratio pql.Expr) pql.Expr { return pql.EqOp(ratio, pql.Num(1)) }
	t.ExprTests = append(t.ExprTests, ratioTest(stalled, slo, model.BaseWindow, allStalled, allBad))
	if len(bounds) > 1 {
		t.ExprTests = append(t.ExprTests, addsUp(stalled, slo, seen))
	}
	return t
}

// addsUp checks, a few minutes into a stall of several bounds, that the
// hour's error ratio adds each bound's bad requests: it reads above the
// midpoint between their sum and the worst bound alone, which a lower
// bound in place of the upper would read.
func addsUp(svc model.Service, slo model.SLO, stalled rules.Traffic) testfile.ExprTest {
	const into = 6 // minutes
	hour := model.TierWindows[model.PageFast].Long
	one := rules.ChangeAt(rules.HealthyPerMinute(svc), historyMinutes, rules.HealthyRatio(slo), 1)
	midpoint := (stalled.Ratio(into, hour.Minutes()) + one.Ratio(into, hour.Minutes())) / 2
	above := func(ratio pql.Expr) pql.Expr { return pql.Gt(ratio, pql.Num(math.Round(midpoint*1e6)/1e6), pql.Bool) }
	return ratioTest(svc, slo, hour, historyMinutes+into, above)
}

// ratioTest checks at minute m that holds, a comparison of the SLO's
// error ratio over w, is 1.
func ratioTest(svc model.Service, slo model.SLO, w time.Duration, m float64, holds func(ratio pql.Expr) pql.Expr) testfile.ExprTest {
	errs, reqs := rules.SLOSeries(rules.Errors(w), svc, slo), rules.SLOSeries(rules.Requests(w), svc, slo)
	return testfile.ExprTest{
		Expr:       pql.Print(holds(pql.Div(pql.Sum(errs), pql.Sum(reqs)))),
		EvalTime:   genfile.Duration(minutes(m)),
		ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: 1}},
	}
}

// boundVanishes: the histogram of a goodput SLO's last bound stops while
// the others go on, as when a runtime upgrade renames it. The SLI can no
// longer add that bound's bad requests, so SLOMetricsAbsent fires for the
// SLO, and for every SLO that read only that histogram, within its bound.
func boundVanishes(svc model.Service, slo model.SLO) testfile.Test {
	const stop = 30
	fire := stop + noDataDelay(svc)
	gone := histogramSeries(svc, slo.SLI.Parts[len(slo.SLI.Parts)-1])
	stopped := map[string]testfile.Series{}
	for _, s := range inputs(svc, steady(rules.HealthyPerMinute(svc), stop)) {
		stopped[s.Series] = s
	}
	var series []testfile.Series
	for _, s := range inputs(svc, steady(rules.HealthyPerMinute(svc), int(fire)+1)) {
		if gone[s.Series] {
			s = stopped[s.Series]
		}
		series = append(series, s)
	}
	vanished := func(o model.SLO) bool { return readsOnly(o, gone) }
	b := slo.Bounds[len(slo.Bounds)-1]
	return testfile.Test{
		Name: fmt.Sprintf("%s: its %s histogram vanishing while the others go on fires %s within %s", describe(slo), model.BoundField(b.Kind),
			rules.NoDataAlert, genfile.Duration(minutes(noDataDelay(svc)))),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  []testfile.AlertTest{noDataTest(svc, stop+3, none), noDataTest(svc, fire, vanished)},
	}
}

// histogramSeries are the input series, of every SLO, of the metrics a
// part reads: all of its histogram's buckets, whatever SLO reads them.
func histogramSeries(svc model.Service, part model.SLI) map[string]bool {
	names := map[string]bool{}
	for _, in := range part.Inputs {
		names[metricOf(in)] = true
	}
	out := map[string]bool{}
	for _, o := range testable(svc) {
		for _, in := range o.SLI.Inputs {
			if names[metricOf(in)] {
				out[written(in)] = true
			}
		}
	}
	return out
}

// readsOnly reports whether every series of one of the SLO's parts (a
// goodput SLO's bounds, or its one SLI) is among the series given.
func readsOnly(slo model.SLO, series map[string]bool) bool {
	parts := slo.SLI.Measured()
	return slices.ContainsFunc(parts, func(p model.SLI) bool {
		return len(p.Inputs) > 0 && !slices.ContainsFunc(p.Inputs, func(in model.Input) bool { return !series[written(in)] })
	})
}

// boundNames names a goodput SLO's bounds, by index, as a spec writes
// them: "ttft 1s, tpot 50ms".
func boundNames(slo model.SLO, bounds []int) string {
	names := make([]string, len(bounds))
	for i, b := range bounds {
		names[i] = fmt.Sprintf("%s %s", model.BoundField(slo.Bounds[b].Kind), genfile.Duration(slo.Bounds[b].Threshold))
	}
	return strings.Join(names, ", ")
}

// withInputs is the service with one SLO's inputs replaced.
func withInputs(svc model.Service, name string, ins []model.Input) model.Service {
	svc.SLOs = append([]model.SLO(nil), svc.SLOs...)
	for i := range svc.SLOs {
		if svc.SLOs[i].Name == name {
			svc.SLOs[i].SLI.Inputs = ins
		}
	}
	return svc
}
