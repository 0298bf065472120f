package gpualerts

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"

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

// Tests returns promtool tests of the service's GPU and serving alerts:
// for each, a scenario where it fires and one where it stays quiet. When
// it must and must not be firing is computed from the scenario by the
// predictor, never picked by hand. Skips are scenarios that cannot be
// built for this spec.
func Tests(svc model.Service) (Suite, []Skip) {
	defs, _ := definitions(svc)
	byName := map[string]alertDef{}
	for _, d := range defs {
		byName[d.name] = d
	}
	p := newPredictor(svc)
	scs, skips := simpleScenarios(svc, p)
	scs = append(scs, oomScenarios(svc, p)...)
	scs = append(scs, leakScenarios(svc, p)...)
	scs = append(scs, diagnosisScenario(svc, p))
	var suite Suite
	for _, sc := range scs {
		sc, ok := restrict(sc, byName)
		if !ok {
			continue
		}
		t, err := build(svc, p, byName, sc)
		if err != nil {
			skips = append(skips, Skip{sc.name, err.Error()})
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
func restrict(sc scenario, defs map[string]alertDef) (scenario, bool) {
	has := func(a string) bool { _, ok := defs[a]; return ok }
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

func build(svc model.Service, p predictor, defs map[string]alertDef, sc scenario) (ruletests.Test, error) {
	checks, err := cachedPlan(svc, p, defs, sc)
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
			exp, err := expected(svc, defs[c.alert])
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
func plan(p predictor, defs map[string]alertDef, sc scenario) ([]check, error) {
	timelines := map[string]*timeline{}
	timeline := func(a string) *timeline {
		if _, ok := timelines[a]; !ok {
			timelines[a] = p.timeline(a, sc.world, sc.evaluation())
		}
		return timelines[a]
	}
	var checks []check
	for _, e := range sc.expect {
		cs, err := e.plan(timeline, defs, sc.world.length, sc.evaluation())
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
func (e expectation) plan(timeline func(string) *timeline, defs map[string]alertDef, length, eval time.Duration) ([]check, error) {
	for _, a := range append([]string{e.fires}, e.quiet...) {
		if d, ok := defs[a]; ok && d.hold%eval != 0 {
			return nil, fmt.Errorf("%s holds for %s, which evaluations every %s cannot time", a, rules.Window(d.hold), rules.Window(eval))
		}
	}
	var checks []check
	times := e.checks
	if len(times) == 0 {
		times = []time.Duration{(length / 2).Truncate(eval), length.Truncate(eval)}
	}
	if e.fires != "" {
		fireAt, quietAt, ok := crossing(timeline(e.fires), defs[e.fires].hold, e.from)
		if !ok {
			return nil, fmt.Errorf("%s is not sure to fire after %s", e.fires, rules.Window(e.from))
		}
		checks = append(checks, check{quietAt, e.fires, false}, check{fireAt, e.fires, true})
		times = []time.Duration{fireAt}
	}
	for _, a := range e.quiet {
		for _, at := range times {
			if !quiet(timeline(a), defs[a].hold, at) {
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
// the labels its aggregation keeps from the synthetic series.
func expected(svc model.Service, d alertDef) (ruletests.ExpAlert, error) {
	ls := d.labels(svc)
	var series labels.Labels
	var keep []string
	var err error
	switch d.name {
	case MemoryHigh, MemoryLeak:
		series, err = gpuLabels(svc, fbUsed)
		keep = gpuIdentity(svc)
	case TemperatureHigh:
		series, err = gpuLabels(svc, temp)
		keep = gpuIdentity(svc)
	case XIDErrors:
		series, err = gpuLabels(svc, xid)
		keep = append(gpuIdentity(svc), "err_code")
	case KVCacheHigh:
		series, err = runtimeLabels(svc, svc.Metrics.KVCache)
		keep = replicaIdentity
	case QueueBacklog:
		series, err = runtimeLabels(svc, svc.Metrics.Waiting)
		keep = replicaIdentity
	}
	if err != nil {
		return ruletests.ExpAlert{}, err
	}
	maps.Copy(ls, identity(series, keep))
	return ruletests.ExpAlert{ExpLabels: ls, ExpAnnotations: d.annotations(svc)}, nil
}
