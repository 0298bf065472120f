package ruletests

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// The values a split SLO's test series carry in its group_by labels.
const (
	burningGroup = "burning"
	healthyGroup = "healthy"
)

// grouped lists the testable SLOs split by group_by.
func grouped(svc model.Service) []model.SLO {
	var out []model.SLO
	for _, slo := range testable(svc) {
		if len(slo.GroupBy) > 0 {
			out = append(out, slo)
		}
	}
	return out
}

// groupOutage: two values of each split SLO's labels, one whose every
// request fails after an hour and one healthy beside it. Only the burning
// values page, each with its own labels, when the math says; no alert of
// a healthy one is ever active. Every other SLO stays healthy in both.
// The SLOs under test are timed alike (outageGroups).
func groupOutage(svc model.Service, g outageGroup) testfile.Test {
	s := schedule{}
	var names []string
	for _, slo := range g.slos {
		s[slo.Name] = g.tiers
		names = append(names, fmt.Sprintf("%s split by %s", describe(slo), strings.Join(slo.GroupBy, ", ")))
	}
	worlds := func(length int) (burning, healthy world) {
		failing := change(g.slos, rules.HealthyPerMinute(svc), length, func(model.SLO) float64 { return 1 })
		return newWorld(withGroup(svc, valued(svc.GroupLabels(), burningGroup)), failing),
			newWorld(withGroup(svc, valued(svc.GroupLabels(), healthyGroup)), change(nil, rules.HealthyPerMinute(svc), length, nil))
	}
	burning, healthy := worlds(24 * 60)
	coupledGroups(s, burning, healthy, historyMinutes, 24*60, 1)
	fast, _ := rules.RuleBounds(g.tiers, model.PageRule)
	fire := firstSettled(svc, s, fast.Latest)
	length := historyMinutes + int(fire)
	burning, healthy = worlds(length)
	series := append(burning.series(), healthy.series()...)
	return testfile.Test{
		Name: fmt.Sprintf("%s: a full outage of one value pages for it alone, %s; the healthy value beside it raises no alert",
			strings.Join(names, "; "), pageSpan(fast, fire)),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  burningLabels(svc, burnTest(svc, s, historyMinutes, 1, math.Ceil(fast.Earliest)-1, fire)),
		ExprTests:   quietValues(svc, g.slos, float64(length)),
	}
}

// groupSlowBurn: two values of each split SLO, one between the ticket and
// the page rates and one that never fails, whose failure counters (a 5xx
// series, an abort counter) therefore never appear. The burning value's
// tickets open over the long windows as the math says and it never
// pages; the other raises no alert, and its budget is whole: it records
// zero errors over every window, not nothing.
func groupSlowBurn(svc model.Service, under []model.SLO) testfile.Test {
	never := withGroup(svc, valued(svc.GroupLabels(), healthyGroup))
	failuresOnly := func(in model.Input) bool { return in.Good == 0 }
	for i := range never.SLOs {
		never.SLOs[i].SLI.Inputs = slices.DeleteFunc(never.SLOs[i].SLI.Inputs, failuresOnly)
	}
	if never.Traffic != nil {
		never.Traffic.Inputs = slices.DeleteFunc(never.Traffic.Inputs, failuresOnly)
	}
	worlds := func(length int) (burning, healthy world) {
		return newWorld(withGroup(svc, valued(svc.GroupLabels(), burningGroup)), slowBurning(svc, under, length)),
			newWorld(never, func(model.SLO) []phase {
				return []phase{{historyMinutes, rules.HealthyPerMinute(svc), 0}, {length - historyMinutes, rules.HealthyPerMinute(svc), 0}}
			})
	}
	b := newSlowBurn(svc, under, func(s schedule) {
		burning, healthy := worlds(3 * 24 * 60)
		coupledGroups(s, burning, healthy, historyMinutes, 3*24*60, LongEvaluationInterval.Minutes())
	})
	length := b.length
	burningWorld, healthyWorld := worlds(length)
	burning, healthy := burningWorld.series(), healthyWorld.series()
	checks := quietValues(svc, under, float64(length))
	for _, slo := range under {
		ms := append(valueMatchers(svc, slo.GroupBy, healthyGroup), labels.MustNewMatcher(labels.MatchEqual, "slo", slo.Name))
		checks = append(checks, testfile.ExprTest{
			Expr:       pql.Print(pql.Count(pql.EqOp(pql.Metric(rules.BudgetRemainingMetric, ms...), pql.Num(1)))),
			EvalTime:   genfile.Duration(minutes(float64(length))),
			ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: 1}},
		})
	}
	return testfile.Test{
		Name:        fmt.Sprintf("a slow burn of one value of each split SLO opens its tickets and never pages; a value that never fails raises nothing and keeps its whole budget (%d SLOs)", len(under)),
		Interval:    "1m",
		InputSeries: append(burning, healthy...),
		AlertTests:  burningLabels(svc, b.checks(svc)),
		ExprTests:   append(checks, neverActive(svc, float64(length), b.quiet())),
	}
}

// burningLabels gives the expected burn alerts the burning value of
// their SLO's group_by labels.
func burningLabels(svc model.Service, checks []testfile.AlertTest) []testfile.AlertTest {
	for i := range checks {
		for j, a := range checks[i].ExpAlerts {
			slo := sloNamed(svc, a.ExpLabels["slo"])
			ls := merged(a.ExpLabels, valued(slo.GroupBy, burningGroup))
			checks[i].ExpAlerts[j] = testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: rules.BurnAnnotationsAt(svc, slo, burnRule(ls), nil, ls)}
		}
	}
	return checks
}

// quietValues checks, per split SLO, that no alert about its healthy
// value was ever active up to minute end.
func quietValues(svc model.Service, slos []model.SLO, end float64) []testfile.ExprTest {
	var out []testfile.ExprTest
	for _, slo := range slos {
		f := alertFilter{labels.MustNewMatcher(labels.MatchEqual, "slo", slo.Name)}
		out = append(out, neverActive(svc, end, append(f, valueMatchers(svc, slo.GroupBy, healthyGroup)[1:]...)))
	}
	return out
}

// valueMatchers select the service's series whose labels ls all hold v.
func valueMatchers(svc model.Service, ls []string, v string) []*labels.Matcher {
	ms := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "service", svc.Name)}
	for _, l := range ls {
		ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, l, v))
	}
	return ms
}

func sloNamed(svc model.Service, name string) model.SLO {
	return svc.SLOs[slices.IndexFunc(svc.SLOs, func(s model.SLO) bool { return s.Name == name })]
}

// tooManyGroups: a split SLO holds max_groups values of its labels, which
// is allowed, then one more: SLOTooManyGroups fires once that has lasted
// its `for`, and not a minute before.
func tooManyGroups(svc model.Service, slo model.SLO) testfile.Test {
	// When the value past the cap appears: by the check two minutes
	// before the alert, the others have been there longer than its `for`.
	const more = 5
	wait := rules.TooManyGroupsFor.Minutes()
	// The new value is recorded from its first sample, where the SLI fills
	// in zero for it (a failure counter not yet seen), or else from its
	// first rate, an evaluation later.
	fire := more + 1 + wait
	if svc.Global != nil {
		fire++ // the global ruler's group may run before the one recording the rates
	}
	length := int(fire)
	solo := model.Service{SLOs: []model.SLO{slo}}
	var series []testfile.Series
	for i := range slo.MaxGroups + 1 {
		start, ps := 0, steady(rules.HealthyPerMinute(svc), length)
		if i == slo.MaxGroups {
			start, ps = more, steady(rules.HealthyPerMinute(svc), length-more)
		}
		for _, s := range inputs(withGroup(solo, valued(slo.GroupBy, "g"+strconv.Itoa(i))), ps) {
			if start > 0 {
				s.Values = fmt.Sprintf("_x%d %s", start, s.Values)
			}
			series = append(series, s)
		}
	}
	expect := func(minute float64, firing bool) testfile.AlertTest {
		exp := []testfile.ExpAlert{}
		if firing {
			exp = append(exp, testfile.ExpAlert{ExpLabels: rules.TooManyGroupsLabels(svc, slo), ExpAnnotations: rules.TooManyGroupsAnnotations(svc, slo)})
		}
		return testfile.AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: rules.TooManyGroupsAlert, ExpAlerts: exp}
	}
	return testfile.Test{
		Name: fmt.Sprintf("%s split into %d values of %s raises nothing; one more value fires %s %s to %s after it appears", slo.Name, slo.MaxGroups,
			strings.Join(slo.GroupBy, ", "), rules.TooManyGroupsAlert, genfile.Duration(minutes(wait)), genfile.Duration(minutes(fire-more))),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  []testfile.AlertTest{expect(more, false), expect(fire-2, false), expect(fire, true)},
	}
}

// valued gives every label the value v.
func valued(names []string, v string) map[string]string {
	out := map[string]string{}
	for _, l := range names {
		out[l] = v
	}
	return out
}

// withGroup is the service with every test input of its SLOs, and its
// request counter, carrying the labels ls.
func withGroup(svc model.Service, ls map[string]string) model.Service {
	add := func(sli *model.SLI) *model.SLI {
		c := *sli
		if sli.Inputs == nil {
			return &c
		}
		c.Inputs = make([]model.Input, len(sli.Inputs))
		for i, in := range sli.Inputs {
			b := labels.NewBuilder(in.Series)
			for k, v := range ls {
				b.Set(k, v)
			}
			in.Series = b.Labels()
			c.Inputs[i] = in
		}
		return &c
	}
	svc.SLOs = append([]model.SLO(nil), svc.SLOs...)
	for i := range svc.SLOs {
		sli := add(&svc.SLOs[i].SLI)
		sli.Parts = slices.Clone(sli.Parts)
		for j := range sli.Parts {
			sli.Parts[j] = *add(&sli.Parts[j])
		}
		svc.SLOs[i].SLI = *sli
	}
	if svc.Traffic != nil {
		svc.Traffic = add(svc.Traffic)
	}
	return svc
}

func merged(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

// inputGroup is the values a split SLO's test inputs carry in its
// group_by labels, which its alerts keep: Triton's inputs have a model
// version, for one. Labels the inputs lack are left out, as Prometheus
// leaves out empty labels.
func inputGroup(slo model.SLO) map[string]string {
	out := map[string]string{}
	if len(slo.SLI.Inputs) == 0 {
		return out
	}
	for _, l := range slo.GroupBy {
		if v := slo.SLI.Inputs[0].Series.Get(l); v != "" {
			out[l] = v
		}
	}
	return out
}
