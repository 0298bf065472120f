package ruletests

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
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
func goodputStalls(svc model.Service, outages []outageGroup) []Test {
	var out []Test
	for _, slo := range testable(svc) {
		if slo.Kind != model.Goodput {
			continue
		}
		every := make([]int, len(slo.Bounds))
		for i := range slo.Bounds {
			every[i] = i
			if !stagedByOutage(svc, slo, i, outages) {
				out = append(out, goodputStall(svc, slo, i))
			}
		}
		out = append(out, goodputStall(svc, slo, every...))
	}
	return out
}

// stagedByOutage reports whether one of the outages makes the goodput SLO
// see the stall of its bound alone.
func stagedByOutage(svc model.Service, slo model.SLO, bound int, outages []outageGroup) bool {
	const length = 24 * 60
	stalled := withInputs(svc, slo.Name, slo.SLI.Stalling(bound))
	want := newWorld(stalled, failing(svc, []model.SLO{slo}, length)).shares(sloNamed(stalled, slo.Name))
	return slices.ContainsFunc(outages, func(g outageGroup) bool {
		got := newWorld(svc, failing(svc, g.slos, length)).shares(slo)
		return slices.EqualFunc(got, want, func(a, b []float64) bool {
			return slices.EqualFunc(a, b, func(x, y float64) bool { return near(x, y, 1e-9) })
		})
	})
}

// goodputStall is the stall of the bounds given, by index.
func goodputStall(svc model.Service, slo model.SLO, bounds ...int) Test {
	stalled := withInputs(svc, slo.Name, slo.SLI.Stalling(bounds...))
	slo = sloNamed(stalled, slo.Name)
	seen := trafficOf(newWorld(stalled, failing(svc, []model.SLO{slo}, 24*60)).seen(slo), historyMinutes)
	tiers := tiers(stalled, slo, seen, 24*60, 1)
	t := outage(stalled, outageGroup{[]model.SLO{slo}, tiers})
	fast := tiers[model.PageFast]
	missed := "its " + boundNames(slo, bounds) + " bound alone"
	if len(bounds) > 1 {
		missed = "every bound at once (" + boundNames(slo, bounds) + ")"
	}
	t.Name = fmt.Sprintf("%s: every request missing %s pages %s, and the SLI counts no more bad requests than requests", describe(slo), missed, pageSpan(fast, math.Inf(1)))
	onlyThis := alertFilter{labels.MustNewMatcher(labels.MatchEqual, "slo", slo.Name), labels.MustNewMatcher(labels.MatchEqual, "tier", string(model.PageFast))}
	if notYet := math.Ceil(fast.earliest) - 1; notYet > 0 {
		t.ExprTests = append(t.ExprTests, neverActive(stalled, historyMinutes+notYet, onlyThis))
	}
	t.ExprTests = append(t.ExprTests, badShare(stalled, slo, historyMinutes+2*model.BaseWindow.Minutes(), 1))
	return t
}

// badShare checks the share of requests the SLI counts bad over the base
// window at minute m.
func badShare(svc model.Service, slo model.SLO, m float64, want int64) ExprTest {
	errs, reqs := rules.Selector(rules.Errors(model.BaseWindow), svc, slo), rules.Selector(rules.Requests(model.BaseWindow), svc, slo)
	return ExprTest{
		Expr:       fmt.Sprintf("sum(%s) / sum(%s)", errs, reqs),
		EvalTime:   genfile.Duration(minutes(m)),
		ExpSamples: []ExpSample{{Labels: "{}", Value: want}},
	}
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
