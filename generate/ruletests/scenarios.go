package ruletests

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// Traffic in the scenarios: busy enough that the low-traffic guard never
// decides a burn-rate test, and healthy at a tenth of the budget.
const (
	historyMinutes = 60
	healthyBurn    = 0.1
)

// EvaluationInterval is the evaluation_interval of the file the tests go
// in: the predictor's bounds count one evaluation a minute.
const EvaluationInterval = time.Minute

// Build writes the tests for one service's SLO rules, to run at
// EvaluationInterval. It returns none when no SLO has synthesisable inputs.
func Build(svc model.Service) []Test {
	if len(testable(svc)) == 0 {
		return nil
	}
	tests := []Test{healthy(svc)}
	for _, g := range outageGroups(svc) {
		tests = append(tests, outage(svc, g))
	}
	for _, slos := range slowBurners(svc) {
		tests = append(tests, slowBurn(svc, slos))
	}
	if svc.Alerting.MinEvents > 0 {
		tests = append(tests, lowTraffic(svc))
	}
	return append(tests, noData(svc))
}

// slowBurners groups the SLOs that burn together in one slow-burn test.
// Slow burns run for hours and every test step evaluates every rule, so
// one test for all costs what one test for each did. When no two SLOs read
// a series in common they burn at once; otherwise each gets a test.
func slowBurners(svc model.Service) [][]model.SLO {
	if slos := testable(svc); !independent(slos) {
		return each(slos)
	}
	return [][]model.SLO{testable(svc)}
}

// outageGroups groups the SLOs that fail together in one outage test: those
// whose every tier the predictor times alike, such as latency SLOs with one
// objective, so the test checks each just before its page may fire and
// once it surely has, as a test of its own would. Others, and SLOs that
// share a series, get a test each.
func outageGroups(svc model.Service) []outageGroup {
	var groups []outageGroup
	at := map[string]int{} // a group's index, by its printed tiers
	for _, slo := range testable(svc) {
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
	tiers map[model.Tier]bounds
}

// independent reports whether no two of the SLOs read a series in common,
// so one test can give each its own traffic.
func independent(slos []model.SLO) bool {
	seen := map[string]bool{}
	for _, slo := range slos {
		for _, in := range slo.SLI.Inputs {
			name := in.Series.String()
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

// perMinute is a request rate that gives every long window far more
// requests than the low-traffic guard asks for.
func perMinute(svc model.Service) float64 {
	return math.Max(1000, math.Ceil(float64(svc.Alerting.MinEvents)/10))
}

func healthyRatio(slo model.SLO) float64 {
	b, _ := new(big.Rat).Mul(slo.ErrorBudget(), big.NewRat(1, 10)).Float64()
	return b
}

// inputs feeds every testable SLO: those under test follow their own
// phases, the others stay healthy for as long.
func inputs(svc model.Service, phases func(model.SLO) []phase) []Series {
	var out []Series
	for _, slo := range testable(svc) {
		out = append(out, inputSeries(slo, phases(slo))...)
	}
	return out
}

// change is a run of healthy history, then a new error ratio for the rest
// of length minutes, for the SLOs under test; the others stay healthy.
func change(under []model.SLO, perMinute float64, length int, after func(model.SLO) float64) func(model.SLO) []phase {
	return func(slo model.SLO) []phase {
		ratio := healthyRatio(slo)
		if slices.ContainsFunc(under, func(u model.SLO) bool { return u.Name == slo.Name }) {
			ratio = after(slo)
		}
		return []phase{
			{minutes: historyMinutes, perMinute: perMinute, ratio: healthyRatio(slo)},
			{minutes: length - historyMinutes, perMinute: perMinute, ratio: ratio},
		}
	}
}

// steady is every SLO at its healthy ratio for length minutes.
func steady(perMinute float64, length int) func(model.SLO) []phase {
	return func(slo model.SLO) []phase {
		return []phase{{minutes: length, perMinute: perMinute, ratio: healthyRatio(slo)}}
	}
}

// schedule is a tier's predicted firing for every SLO under test.
type schedule map[string]map[model.Tier]bounds

// expectAt lists the burn alerts that must fire at minute m, or ok=false
// when some tier may or may not have fired yet.
func (s schedule) expectAt(svc model.Service, m float64) (exp []ExpAlert, ok bool) {
	fired, ok := s.firingAt(svc, m)
	for _, f := range fired {
		exp = append(exp, ExpAlert{ExpLabels: rules.BurnLabels(svc, f.slo, f.tier), ExpAnnotations: rules.BurnAnnotations(svc, f.slo, f.tier)})
	}
	return exp, ok
}

// sloTier is one burn-rate alert of an SLO.
type sloTier struct {
	slo  model.SLO
	tier model.Tier
}

// firingAt lists the tiers that must be firing at minute m, or ok=false
// when some tier may or may not have fired yet. It leaves the alerts'
// labels and annotations, exact arithmetic, to expectAt.
func (s schedule) firingAt(svc model.Service, m float64) (fired []sloTier, ok bool) {
	for _, slo := range svc.SLOs {
		for _, t := range model.Tiers {
			b, known := s[slo.Name][t]
			switch {
			case !known || b.never || m < b.earliest:
			case m >= b.latest:
				fired = append(fired, sloTier{slo, t})
			default:
				return nil, false
			}
		}
	}
	return fired, true
}

// burnTest asserts the burn alerts at minutes after the change.
func burnTest(svc model.Service, s schedule, change float64, at ...float64) []AlertTest {
	var out []AlertTest
	for _, m := range at {
		exp, ok := s.expectAt(svc, m)
		if !ok {
			continue
		}
		out = append(out, AlertTest{EvalTime: genfile.Duration(minutes(change + m)), Alertname: rules.BurnAlert, ExpAlerts: exp})
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
