package ruletests

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Traffic in the scenarios: busy enough that the low-traffic guard never
// decides a burn-rate test, and healthy at a tenth of the budget.
const (
	historyMinutes = 60
	healthyBurn    = 0.1
)

// EvaluationInterval is the evaluation_interval of the file the timing
// tests go in: the predictor's bounds count one evaluation a minute.
const EvaluationInterval = time.Minute

// LongEvaluationInterval is the evaluation_interval of the file the
// scenarios that run for hours go in. promtool evaluates every rule at
// every step, so they would cost the most at one step a minute. Their
// assertions are tickets held for an hour or more, which evaluating less
// often can only delay (the predictor allows for that), and quiet ones,
// which every step checks: traffic in these scenarios is steady, so no
// condition can hold between two steps and at neither. It is the period
// group's own interval: any longer and, on Prometheus 3, whose lookback
// leaves out a sample exactly 5m old, the alerts would not see that
// group's recordings from the step before.
const LongEvaluationInterval = 4 * time.Minute

// Suite is a service's SLO rule tests, by the file they go in.
type Suite struct {
	Tests []testfile.Test // evaluated every EvaluationInterval
	Long  []testfile.Test // evaluated every LongEvaluationInterval
	// Global tests the global ruler's rules of a service that spans
	// clusters, alone, over two clusters' recordings, every
	// EvaluationInterval.
	Global []testfile.Test
}

// Build writes the tests for one service's SLO rules. It returns none when
// no SLO has synthesisable inputs.
func Build(svc model.Service) Suite {
	slos := testable(svc)
	if len(slos) == 0 {
		return Suite{}
	}
	var s Suite
	if avail, ok := fullOutageSLO(svc); ok {
		s.Tests = append(s.Tests, fullOutage(svc, avail, 9), fullOutage(svc, avail, 40))
		slos = slices.DeleteFunc(slos, func(o model.SLO) bool { return o.Name == avail.Name })
	}
	outages := outageGroups(svc, slices.DeleteFunc(slos, func(o model.SLO) bool { return o.Kind == model.Goodput }))
	for _, g := range outages {
		s.Tests = append(s.Tests, outage(svc, g, 0))
	}
	s.Tests = append(s.Tests, goodputStalls(svc, outages)...)
	split := grouped(svc)
	for _, g := range outageGroups(svc, split) {
		s.Tests = append(s.Tests, groupOutage(svc, g))
	}
	for _, slo := range split {
		s.Tests = append(s.Tests, tooManyGroups(svc, slo))
	}
	if trafficDropTestable(svc) {
		s.Tests = append(s.Tests, trafficDrop(svc))
	}
	s.Tests = append(s.Tests, noData(svc))
	s.Global = globalTests(svc)
	s.Long = append(s.Long, healthy(svc))
	if avail, ok := fullOutageSLO(svc); ok {
		if young, ok := youngOutage(svc, avail); ok {
			s.Long = append(s.Long, young)
		}
	}
	for _, under := range slowBurners(svc) {
		s.Long = append(s.Long, slowBurn(svc, under))
	}
	if len(split) > 0 && independent(split) {
		s.Long = append(s.Long, groupSlowBurn(svc, split))
	}
	if svc.Alerting.MinEvents > 0 {
		s.Long = append(s.Long, lowTraffic(svc))
	}
	if svc.Alerting.BudgetSeverity != "" {
		s.Long = append(s.Long, budgetSpent(svc))
	}
	return s
}

// slowBurners groups the SLOs that burn together in one slow-burn test.
// Slow burns run for hours and every test step evaluates every rule, so
// one test for many costs what one test for each did. An SLO joins the
// first group none of whose SLOs reads a series it reads; one whose slow
// burn an earlier group already stages through the series they share
// needs no group.
func slowBurners(svc model.Service) [][]model.SLO {
	var groups [][]model.SLO
	for _, slo := range testable(svc) {
		if slices.ContainsFunc(groups, func(g []model.SLO) bool { return stages(svc, g, slo) }) {
			continue
		}
		i := slices.IndexFunc(groups, func(g []model.SLO) bool { return independent(append(slices.Clone(g), slo)) })
		if i < 0 {
			groups = append(groups, nil)
			i = len(groups) - 1
		}
		groups[i] = append(groups[i], slo)
	}
	return groups
}

// stages reports whether the slow burn of the group makes the SLO see
// the slow burn of its own.
func stages(svc model.Service, group []model.SLO, slo model.SLO) bool {
	const length = 24 * 60
	w := newWorld(svc, slowBurning(svc, group, length))
	return sameRatios(w.seen(slo), slowBurning(svc, []model.SLO{slo}, length)(slo))
}

// outageGroups groups the SLOs that fail together in one outage test: those
// whose every tier the predictor times alike, such as latency SLOs with one
// objective, so the test checks each just before its page may fire and
// once it surely has, as a test of its own would. Others, and SLOs that
// share a series, get a test each.
func outageGroups(svc model.Service, slos []model.SLO) []outageGroup {
	var groups []outageGroup
	at := map[string]int{} // a group's index, by its printed tiers
	for _, slo := range slos {
		tiers := outageTiers(svc, slo)
		k := fmt.Sprint(tiers)
		if i, ok := at[k]; ok {
			groups[i].slos = append(groups[i].slos, slo)
			continue
		}
		at[k] = len(groups)
		groups = append(groups, outageGroup{[]model.SLO{slo}, tiers})
	}
	var out []outageGroup
	for _, g := range groups {
		if independent(g.slos) {
			out = append(out, g)
			continue
		}
		for _, slos := range each(g.slos) {
			out = append(out, outageGroup{slos, g.tiers})
		}
	}
	return out
}

// outageGroup is SLOs whose tiers an outage times alike, and those tiers.
type outageGroup struct {
	slos  []model.SLO
	tiers map[model.Tier]rules.Bounds
}

// independent reports whether no two of the SLOs read a series in common,
// so one test can give each its own traffic.
func independent(slos []model.SLO) bool {
	seen := map[string]bool{}
	for _, slo := range slos {
		for _, in := range slo.SLI.Inputs {
			name := written(in)
			if seen[name] {
				return false
			}
			seen[name] = true
		}
	}
	return true
}

func each(slos []model.SLO) [][]model.SLO {
	out := make([][]model.SLO, len(slos))
	for i, slo := range slos {
		out[i] = []model.SLO{slo}
	}
	return out
}

func testable(svc model.Service) []model.SLO {
	var out []model.SLO
	for _, s := range svc.SLOs {
		if s.SLI.Inputs != nil {
			out = append(out, s)
		}
	}
	return out
}

// minutes rounds a predicted time up to whole minutes, as test names and
// checks give it.
func minutes(m float64) time.Duration {
	return time.Duration(math.Ceil(m)) * time.Minute
}

// inputs feeds every testable SLO: those under test follow their own
// phases, the others stay healthy for as long. Series two SLOs share are
// written once (world).
func inputs(svc model.Service, phases func(model.SLO) []phase) []testfile.Series {
	return newWorld(svc, phases).series()
}

// untestedTraffic is the service's request counters that no testable SLO
// reads.
func untestedTraffic(svc model.Service, read map[string]bool) []model.Input {
	if svc.Traffic == nil {
		return nil
	}
	var out []model.Input
	for _, in := range svc.Traffic.Inputs {
		if !read[written(in)] {
			out = append(out, in)
		}
	}
	return out
}

func withRatio(ps []phase, ratio float64) []phase {
	out := slices.Clone(ps)
	for i := range out {
		out[i].ratio = ratio
	}
	return out
}

// change is a run of healthy history, then a new error ratio for the rest
// of length minutes, for the SLOs under test; the others stay healthy.
func change(under []model.SLO, perMinute float64, length int, after func(model.SLO) float64) func(model.SLO) []phase {
	return func(slo model.SLO) []phase {
		ratio := rules.HealthyRatio(slo)
		if slices.ContainsFunc(under, func(u model.SLO) bool { return u.Name == slo.Name }) {
			ratio = after(slo)
		}
		return []phase{
			{minutes: historyMinutes, perMinute: perMinute, ratio: rules.HealthyRatio(slo)},
			{minutes: length - historyMinutes, perMinute: perMinute, ratio: ratio},
		}
	}
}

// steady is every SLO at its healthy ratio for length minutes.
func steady(perMinute float64, length int) func(model.SLO) []phase {
	return func(slo model.SLO) []phase {
		return []phase{{minutes: length, perMinute: perMinute, ratio: rules.HealthyRatio(slo)}}
	}
}

// schedule is a tier's predicted firing for every SLO under test.
type schedule map[string]map[model.Tier]rules.Bounds

// page brackets when the page of an SLO under test fires.
func (s schedule) page(slo string) rules.Bounds {
	b, _ := rules.RuleBounds(s[slo], model.PageRule)
	return b
}

// expectAt lists the burn alerts that must fire at minute m, or ok=false
// when some rule may or may not have fired yet.
func (s schedule) expectAt(svc model.Service, m float64) (exp []testfile.ExpAlert, ok bool) {
	fired, ok := s.firingAt(svc, m)
	for _, f := range fired {
		ls := merged(rules.BurnLabels(svc, f.slo, f.rule), inputGroup(f.slo))
		exp = append(exp, testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: rules.BurnAnnotationsAt(svc, f.slo, f.rule, nil, ls)})
	}
	return exp, ok
}

// burnRule is the burn rule of an expected alert, by its tier label.
func burnRule(ls map[string]string) model.BurnRule {
	b, _ := model.BurnRuleNamed(ls["tier"])
	return b
}

// sloRule is one burn-rate alert of an SLO.
type sloRule struct {
	slo  model.SLO
	rule model.BurnRule
}

// firingAt lists the burn rules that must be firing at minute m, or
// ok=false when some rule may or may not have fired yet. It leaves the
// alerts' labels and annotations, exact arithmetic, to expectAt.
func (s schedule) firingAt(svc model.Service, m float64) (fired []sloRule, ok bool) {
	for _, slo := range svc.SLOs {
		for _, r := range model.BurnRules {
			b, known := rules.RuleBounds(s[slo.Name], r)
			switch {
			case !known || b.Never || m < b.Earliest:
			case m >= b.Latest:
				fired = append(fired, sloRule{slo, r})
			default:
				return nil, false
			}
		}
	}
	return fired, true
}

// burnTest asserts the burn alerts at minutes after the change, in a file
// evaluated every step minutes. promtool checks alerts at the evaluation at
// or before an eval_time, so each check goes on an evaluation: the one
// before the minute when every tier's state is known there, which keeps a
// check that nothing fired yet, or else the one after.
func burnTest(svc model.Service, s schedule, change, step float64, at ...float64) []testfile.AlertTest {
	var out []testfile.AlertTest
	done := map[float64]bool{}
	for _, m := range at {
		for _, t := range []float64{math.Floor((change+m)/step) * step, math.Ceil((change+m)/step) * step} {
			exp, ok := s.expectAt(svc, t-change)
			if !ok || t < 0 {
				continue
			}
			if !done[t] {
				done[t] = true
				out = append(out, testfile.AlertTest{EvalTime: genfile.Duration(minutes(t)), Alertname: rules.BurnAlert, ExpAlerts: exp})
			}
			break
		}
	}
	return out
}

// firstSettled is the first whole minute from m on at which every tier's
// state is known.
func firstSettled(svc model.Service, s schedule, m float64) float64 {
	m = math.Ceil(m)
	for ; m < 7*24*60; m++ {
		if _, ok := s.firingAt(svc, m); ok {
			return m
		}
	}
	return m
}

func describe(slo model.SLO) string {
	return fmt.Sprintf("%s (objective %s%% over %s)", slo.Name, rules.Percent(slo.Objective), slo.Period.Name)
}
