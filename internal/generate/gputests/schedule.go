package gputests

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/memo"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// schedule is the tests of one shape before labels: its scenarios, each
// with its checks or why it cannot be tested, and the alerts no scenario
// can test.
type schedule struct {
	skips     []gpualerts.Skip
	scenarios []*planned
}

// planned is one scenario of a shape. values holds the encoded samples of
// each reading its series make of the world, worked out once for every
// service of the shape.
type planned struct {
	name  string
	eval  time.Duration // the test file's evaluation interval
	world world         // up to the last check
	total float64       // MiB of the GPU, for FB_FREE
	// hitsCounted: the prefix cache's hit ratio is its counters'.
	hitsCounted bool
	checks      []check
	err         error
	values      memo.Memo[reading, string]
}

// check is one assertion: alert firing or not at a time.
type check struct {
	at     time.Duration
	alert  string
	firing bool
}

func newSchedule(s shape) *schedule {
	p := s.predictor
	scs, skips := simpleScenarios(p)
	scs = append(scs, oomScenarios(p)...)
	scs = append(scs, leakScenarios(p)...)
	scs = append(scs, diagnosisScenario(p))
	scs = append(scs, caseScenarios(p)...)
	sch := &schedule{skips: skips}
	for _, sc := range scs {
		sc, ok := restrict(sc, s.alerts)
		if !ok {
			continue
		}
		pl := &planned{name: sc.name, eval: sc.evaluation(), world: sc.world, total: p.total, hitsCounted: p.hitsCounted}
		pl.checks, pl.err = plan(p, s.alerts, sc)
		if pl.err == nil {
			pl.world.length = slices.MaxFunc(pl.checks, func(a, b check) int { return cmp.Compare(a.at, b.at) }).at
		}
		sch.scenarios = append(sch.scenarios, pl)
	}
	return sch
}

// encoded is the reading's samples in promtool's notation.
func (pl *planned) encoded(r reading) string {
	return pl.values.Get(r, func(r reading) string {
		vs := r.values(pl.world, pl.total)
		if r.native {
			return testfile.Split([]float64{1}).Samples(vs, vs)
		}
		return testfile.Samples(vs)
	})
}

// restrict drops the alerts the service does not have; a scenario left
// asserting nothing is dropped.
func restrict(sc scenario, alerts holds) (scenario, bool) {
	has := func(a string) bool { _, ok := alerts.of(a); return ok }
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

// plan works out the assertions of every expectation.
func plan(p predictor, alerts holds, sc scenario) ([]check, error) {
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
func (e expectation) plan(timeline func(string) *timeline, alerts holds, length, eval time.Duration) ([]check, error) {
	for _, a := range append([]string{e.fires}, e.quiet...) {
		if hold, ok := alerts.of(a); ok && hold%eval != 0 {
			return nil, fmt.Errorf("%s holds for %s, which evaluations every %s cannot time", a, genfile.Duration(hold), genfile.Duration(eval))
		}
	}
	var checks []check
	times := e.checks
	if len(times) == 0 {
		times = []time.Duration{(length / 2).Truncate(eval), length.Truncate(eval)}
	}
	if e.fires != "" {
		hold, _ := alerts.of(e.fires)
		fireAt, quietAt, ok := crossing(timeline(e.fires), hold, e.from)
		if !ok {
			return nil, fmt.Errorf("%s is not sure to fire after %s", e.fires, genfile.Duration(e.from))
		}
		checks = append(checks, check{quietAt, e.fires, false}, check{fireAt, e.fires, true})
		times = []time.Duration{fireAt}
	}
	for _, a := range e.quiet {
		hold, _ := alerts.of(a)
		for _, at := range times {
			if !quiet(timeline(a), hold, at) {
				return nil, fmt.Errorf("%s may fire at %s", a, genfile.Duration(at))
			}
			checks = append(checks, check{at, a, false})
		}
	}
	return checks, nil
}

// crossing is the first evaluation from `from` on at which the alert
// surely fires, and the last one before it at which it surely does not.
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

// untested are the alerts and scenarios that get no test: the shape's,
// and every scenario's when the service's series cannot be labelled.
func (sch *schedule) untested(labelErr error) []gpualerts.Skip {
	skips := slices.Clone(sch.skips)
	for _, pl := range sch.scenarios {
		if err := cmp.Or(pl.err, labelErr); err != nil {
			skips = append(skips, gpualerts.Skip{Alert: pl.name, Reason: err.Error()})
		}
	}
	return skips
}
