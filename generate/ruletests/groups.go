package ruletests

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
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

// groupOutage: two values of a split SLO's labels, one whose every
// request fails after an hour and one healthy beside it. Only the burning
// value pages, with its own labels, when the math says; no alert of the
// healthy one is ever active. Every other SLO stays healthy in both.
func groupOutage(svc model.Service, slo model.SLO) Test {
	s := schedule{slo.Name: outageTiers(svc, slo)}
	fast := s[slo.Name][model.PageFast]
	fire := firstSettled(svc, s, fast.latest)
	length := historyMinutes + int(fire)
	burning := groupLabels(slo, burningGroup)
	var series []Series
	for _, v := range []string{burningGroup, healthyGroup} {
		phases := steady(perMinute(svc), length)
		if v == burningGroup {
			phases = change([]model.SLO{slo}, perMinute(svc), length, func(model.SLO) float64 { return 1 })
		}
		series = append(series, inputs(withGroup(svc, groupLabels(slo, v)), phases)...)
	}
	checks := burnTest(svc, s, historyMinutes, 1, math.Ceil(fast.earliest)-1, fire)
	for i := range checks {
		for j, a := range checks[i].ExpAlerts {
			checks[i].ExpAlerts[j].ExpLabels = merged(a.ExpLabels, burning)
		}
	}
	healthy := alertFilter{}
	for _, l := range slo.GroupBy {
		healthy = append(healthy, labels.MustNewMatcher(labels.MatchEqual, l, healthyGroup))
	}
	return Test{
		Name: fmt.Sprintf("%s split by %s: a full outage of one value pages for it alone, %s; the healthy value beside it raises no alert",
			describe(slo), strings.Join(slo.GroupBy, ", "), pageSpan(fast, fire)),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  checks,
		ExprTests:   []ExprTest{neverActive(svc, float64(length), healthy)},
	}
}

// tooManyGroups: a split SLO holds max_groups values of its labels for
// half an hour, which is allowed, then one more: SLOTooManyGroups fires
// once that has lasted its `for`, and not a minute before.
func tooManyGroups(svc model.Service, slo model.SLO) Test {
	const more = 30 // when the value past the cap appears
	wait := rules.TooManyGroupsFor.Minutes()
	// The new value is recorded from its first sample, where the SLI fills
	// in zero for it (a failure counter not yet seen), or else from its
	// first rate, an evaluation later.
	fire := more + 1 + wait
	length := int(fire)
	solo := model.Service{SLOs: []model.SLO{slo}}
	var series []Series
	for i := range slo.MaxGroups + 1 {
		start, ps := 0, steady(perMinute(svc), length)
		if i == slo.MaxGroups {
			start, ps = more, steady(perMinute(svc), length-more)
		}
		for _, s := range inputs(withGroup(solo, groupLabels(slo, "g"+strconv.Itoa(i))), ps) {
			if start > 0 {
				s.Values = fmt.Sprintf("_x%d %s", start, s.Values)
			}
			series = append(series, s)
		}
	}
	expect := func(minute float64, firing bool) AlertTest {
		exp := []ExpAlert{}
		if firing {
			exp = append(exp, ExpAlert{ExpLabels: rules.TooManyGroupsLabels(svc, slo), ExpAnnotations: rules.TooManyGroupsAnnotations(svc, slo)})
		}
		return AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: rules.TooManyGroupsAlert, ExpAlerts: exp}
	}
	return Test{
		Name: fmt.Sprintf("%s split into %d values of %s for %dm is allowed; one more value fires %s %s to %s later", slo.Name, slo.MaxGroups,
			strings.Join(slo.GroupBy, ", "), more, rules.TooManyGroupsAlert, genfile.Duration(minutes(fire-more-1)), genfile.Duration(minutes(fire-more))),
		Interval:    "1m",
		InputSeries: series,
		AlertTests:  []AlertTest{expect(more, false), expect(fire-2, false), expect(fire, true)},
	}
}

// groupLabels gives every group_by label of the SLO the value v.
func groupLabels(slo model.SLO, v string) map[string]string {
	out := map[string]string{}
	for _, l := range slo.GroupBy {
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
			c.Inputs[i] = model.Input{Series: b.Labels(), Good: in.Good, Bad: in.Bad}
		}
		return &c
	}
	svc.SLOs = append([]model.SLO(nil), svc.SLOs...)
	for i := range svc.SLOs {
		svc.SLOs[i].SLI = *add(&svc.SLOs[i].SLI)
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
