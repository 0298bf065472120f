// Package gputests writes the promtool tests of a service's GPU and
// serving alerts (gpu-rules_test.yaml, and gpu-diagnosis_test.yaml for the
// day-long diagnosis): for each alert a scenario where it fires and one
// where it stays quiet. Each scenario is a world, a model of the service
// over time from which the input series are sampled; when each alert must
// and must not be firing is computed from that world by an independent
// predictor of the rules. The predictor reads gpualerts' Plan as plain
// facts (which alerts exist, their thresholds, `for`s and labels), never
// its expressions, so a broken expression fails its test.
//
// TestGeneratedTestsPassInProcess and TestGeneratedTestsPassPromtool prove
// the tests pass against the generated rules, and
// TestGeneratedTestsCatchASilencedAlert that they fail without them.
package gputests

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/generate/gpualerts"
	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/model"
)

// Suite is the generated tests, by the evaluation interval of the test
// file each belongs in.
type Suite struct {
	Tests     []ruletests.Test // at EvaluationInterval
	Diagnosis []ruletests.Test // at DiagnosisEvaluationInterval
}

// Tests returns promtool tests of the plan's alerts: for each, a scenario
// where it fires and one where it stays quiet. When it must and must not
// be firing is computed from the scenario by the predictor, never picked
// by hand. Skips are scenarios that cannot be built for this spec.
func Tests(plan gpualerts.Plan) (Suite, []gpualerts.Skip) {
	svc := plan.Service
	alerts := map[string]gpualerts.Alert{}
	for _, a := range plan.Alerts {
		alerts[a.Name] = a
	}
	p := newPredictor(plan)
	scs, skips := simpleScenarios(p)
	scs = append(scs, oomScenarios(p)...)
	scs = append(scs, leakScenarios(p)...)
	scs = append(scs, diagnosisScenario(p))
	var suite Suite
	for _, sc := range scs {
		sc, ok := restrict(sc, alerts)
		if !ok {
			continue
		}
		t, err := build(svc, p, alerts, sc)
		if err != nil {
			skips = append(skips, gpualerts.Skip{Alert: sc.name, Reason: err.Error()})
			continue
		}
		if sc.evaluation() == DiagnosisEvaluationInterval {
			suite.Diagnosis = append(suite.Diagnosis, t)
		} else {
			suite.Tests = append(suite.Tests, t)
		}
	}
	return suite, skips
}

// restrict drops the alerts the service does not have; a scenario left
// asserting nothing is dropped.
func restrict(sc scenario, alerts map[string]gpualerts.Alert) (scenario, bool) {
	has := func(a string) bool { _, ok := alerts[a]; return ok }
	var kept []expectation
	for _, e := range sc.expect {
		if !has(e.fires) {
			e.fires = ""
		}
		e.quiet = slices.DeleteFunc(slices.Clone(e.quiet), func(a string) bool { return !has(a) })
		if e.fires != "" || len(e.quiet) > 0 {
			kept = append(kept, e)
		}
	}
	sc.expect = kept
	return sc, len(kept) > 0
}

// check is one assertion: alert firing or not at a time.
type check struct {
	at     time.Duration
	alert  string
	firing bool
}

func build(svc model.Service, p predictor, alerts map[string]gpualerts.Alert, sc scenario) (ruletests.Test, error) {
	checks, err := cachedPlan(svc, p, alerts, sc)
	if err != nil {
		return ruletests.Test{}, err
	}
	w := sc.world
	w.length = slices.MaxFunc(checks, func(a, b check) int { return cmp.Compare(a.at, b.at) }).at
	series, err := testSeries(svc, w)
	if err != nil {
		return ruletests.Test{}, err
	}
	t := ruletests.Test{Name: sc.name, Interval: rules.Window(w.step), InputSeries: series}
	for _, c := range checks {
		at := ruletests.AlertTest{EvalTime: rules.Window(c.at), Alertname: c.alert, ExpAlerts: []ruletests.ExpAlert{}}
		if c.firing {
			exp, err := expected(svc, alerts[c.alert])
			if err != nil {
				return ruletests.Test{}, err
			}
			at.ExpAlerts = []ruletests.ExpAlert{exp}
		}
		t.AlertTests = append(t.AlertTests, at)
	}
	return t, nil
}

// plan works out the assertions of every expectation.
func plan(p predictor, alerts map[string]gpualerts.Alert, sc scenario) ([]check, error) {
	timelines := map[string]*timeline{}
	timeline := func(a string) *timeline {
		if _, ok := timelines[a]; !ok {
			timelines[a] = p.timeline(a, sc.world, sc.evaluation())
		}
		return timelines[a]
	}
	var checks []check
	for _, e := range sc.expect {
		cs, err := e.plan(timeline, alerts, sc.world.length, sc.evaluation())
		if err != nil {
			return nil, fmt.Errorf("%q: %w", sc.name, err)
		}
		checks = append(checks, cs...)
	}
	slices.SortStableFunc(checks, func(a, b check) int { return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.alert, b.alert)) })
	return checks, nil
}

// plan asserts the last moment the alert under test is surely quiet and
// the first it surely fires, and the others surely quiet then (or at the
// checks, when nothing fires).
func (e expectation) plan(timeline func(string) *timeline, alerts map[string]gpualerts.Alert, length, eval time.Duration) ([]check, error) {
	for _, a := range append([]string{e.fires}, e.quiet...) {
		if d, ok := alerts[a]; ok && d.For%eval != 0 {
			return nil, fmt.Errorf("%s holds for %s, which evaluations every %s cannot time", a, rules.Window(d.For), rules.Window(eval))
		}
	}
	var checks []check
	times := e.checks
	if len(times) == 0 {
		times = []time.Duration{(length / 2).Truncate(eval), length.Truncate(eval)}
	}
	if e.fires != "" {
		fireAt, quietAt, ok := crossing(timeline(e.fires), alerts[e.fires].For, e.from)
		if !ok {
			return nil, fmt.Errorf("%s is not sure to fire after %s", e.fires, rules.Window(e.from))
		}
		checks = append(checks, check{quietAt, e.fires, false}, check{fireAt, e.fires, true})
		times = []time.Duration{fireAt}
	}
	for _, a := range e.quiet {
		for _, at := range times {
			if !quiet(timeline(a), alerts[a].For, at) {
				return nil, fmt.Errorf("%s may fire at %s", a, rules.Window(at))
			}
			checks = append(checks, check{at, a, false})
		}
	}
	return checks, nil
}

// crossing is the first minute from `from` on when the alert surely
// fires, and the last one before it when it surely does not.
func crossing(tl *timeline, hold, from time.Duration) (fireAt, quietAt time.Duration, ok bool) {
	for m := tl.index(from); m < tl.steps; m++ {
		at := time.Duration(m) * tl.eval
		if fires(tl, hold, at) {
			fireAt, ok = at, true
			break
		}
	}
	if !ok {
		return 0, 0, false
	}
	for at := fireAt - tl.eval; at >= 0; at -= tl.eval {
		if quiet(tl, hold, at) {
			return fireAt, at, true
		}
	}
	return 0, 0, false
}

// expected is the firing alert: the rule's labels and annotations, and
// the labels it keeps from the synthetic series it reads.
func expected(svc model.Service, a gpualerts.Alert) (ruletests.ExpAlert, error) {
	var series labels.Labels
	var err error
	switch a.Name {
	case gpualerts.MemoryHigh, gpualerts.MemoryLeak:
		series, err = gpuLabels(svc, fbUsed)
	case gpualerts.TemperatureHigh:
		series, err = gpuLabels(svc, gpuTemp)
	case gpualerts.XIDErrors:
		series, err = gpuLabels(svc, xidErrors)
	case gpualerts.KVCacheHigh:
		series, err = runtimeLabels(svc, svc.Metrics.KVCache)
	case gpualerts.QueueBacklog:
		series, err = runtimeLabels(svc, svc.Metrics.Waiting)
	}
	if err != nil {
		return ruletests.ExpAlert{}, err
	}
	ls := maps.Clone(a.Labels)
	maps.Copy(ls, identity(series, a.Keeps))
	return ruletests.ExpAlert{ExpLabels: ls, ExpAnnotations: a.Annotations}, nil
}
