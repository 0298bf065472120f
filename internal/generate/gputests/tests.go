// Package gputests writes the promtool tests of a service's GPU and
// serving alerts (gpu-rules_test.yaml, and gpu-diagnosis_test.yaml for the
// day-long diagnosis): for each alert a scenario where it fires and one
// where it stays quiet. Each scenario is a world, a model of the service
// over time from which the input series are sampled; when each alert must
// and must not be firing is computed from that world by an independent
// predictor of the rules. The predictor reads gpualerts' Plan as plain
// facts (which alerts exist, their thresholds, `for`s and labels), never
// its expressions, so a broken expression fails its test. A firing
// alert is expected with its annotations rendered, labels and value
// filled in (annotations.go), so a broken template fails too. Series are
// written with ruletests' encoder.
//
// Services alike but for names and labels share their scenarios, checks
// and series values through a Cache, one per build.
//
// TestGeneratedTestsPassInProcess and TestGeneratedTestsPassPromtool prove
// the tests pass against the generated rules,
// TestGeneratedTestsCatchASilencedAlert that they fail without them, and
// TestASharedCacheGivesEachServiceItsOwnTests that sharing changes nothing.
package gputests

import (
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Suite is the generated tests, by the evaluation interval of the test
// file each belongs in.
type Suite struct {
	Tests     []testfile.Test // at EvaluationInterval
	Diagnosis []testfile.Test // at DiagnosisEvaluationInterval
}

// Tests returns promtool tests of the plan's alerts: for each, a scenario
// where it fires and one where it stays quiet. When it must and must not
// be firing is computed from the scenario by the predictor, never picked
// by hand. Untested lists what it leaves out. c holds what services of
// the plan's shape share.
func (c *Cache) Tests(plan gpualerts.Plan) Suite {
	sch := c.schedule(plan)
	ins, err := inputs(plan.Service)
	var suite Suite
	if err == nil {
		series, firing := dedupe(ins), firingAlerts(plan, ins)
		for _, pl := range sch.scenarios {
			if pl.err != nil {
				continue
			}
			t := pl.test(series, firing)
			if pl.eval == DiagnosisEvaluationInterval {
				suite.Diagnosis = append(suite.Diagnosis, t)
			} else {
				suite.Tests = append(suite.Tests, t)
			}
		}
	}
	if t, ok := claimTest(plan); ok {
		suite.Tests = append(suite.Tests, t)
	}
	return suite
}

// Untested is what Tests skips, without writing a test.
func (c *Cache) Untested(plan gpualerts.Plan) []gpualerts.Skip {
	_, err := inputs(plan.Service)
	return c.schedule(plan).untested(err)
}

// test is the scenario for one service: its series, and its checks with
// the alerts that fire labelled as the service's (firing, by name).
func (pl *planned) test(series []input, firing map[string]testfile.ExpAlert) testfile.Test {
	t := testfile.Test{Name: pl.name, Interval: genfile.Duration(pl.world.step)}
	for _, in := range series {
		if !pl.writes(in.reading) {
			continue
		}
		t.InputSeries = append(t.InputSeries, testfile.Series{Series: in.series, Values: pl.encoded(in.reading)})
	}
	for _, c := range pl.checks {
		at := testfile.AlertTest{EvalTime: genfile.Duration(c.at), Alertname: c.alert, ExpAlerts: []testfile.ExpAlert{}}
		if c.firing {
			exp := firing[c.alert]
			exp.ExpAnnotations = expanded(exp.ExpAnnotations, exp.ExpLabels, func() (float64, bool) { return pl.valueAt(c.alert, c.at) })
			at.ExpAlerts = []testfile.ExpAlert{exp}
		}
		t.AlertTests = append(t.AlertTests, at)
	}
	return t
}

// firingAlerts are the service's alerts as a test expects them firing:
// the rule's labels and annotation templates, and the labels each keeps
// from the series it reads (among ins). Every check of every scenario
// shares them; each check expands the templates.
func firingAlerts(plan gpualerts.Plan, ins []input) map[string]testfile.ExpAlert {
	out := make(map[string]testfile.ExpAlert, len(plan.Alerts))
	for _, a := range plan.Alerts {
		ls := maps.Clone(a.Labels)
		if j := slices.IndexFunc(ins, func(in input) bool { return a.From != "" && in.metric == a.From }); j >= 0 {
			maps.Copy(ls, identity(ins[j].labels, a.Keeps))
		}
		out[a.Name] = testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: a.Annotations}
	}
	return out
}
