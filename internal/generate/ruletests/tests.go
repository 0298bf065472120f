// Package ruletests writes promtool unit tests for a service's rule file.
// Every expected alert and time is computed from the spec: the burn-rate
// math says when each tier must have fired and when it cannot yet have.
package ruletests

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// quietLength is how long the tests that expect quiet run: past the
// longest `for` of any tier, so each tier had the time to fire.
func quietLength(svc model.Service) int {
	longest := time.Duration(0)
	for _, d := range svc.Alerting.For {
		longest = max(longest, d)
	}
	return int(longest.Minutes()) + 10
}

// healthy: every SLO at a tenth of its budget pages no one, for longer
// than any tier's `for`.
func healthy(svc model.Service) testfile.Test {
	length := quietLength(svc)
	step := LongEvaluationInterval.Minutes()
	s := schedule{}
	for _, slo := range testable(svc) {
		s[slo.Name] = rules.PredictTiers(svc, slo, rules.SteadyTraffic(rules.HealthyPerMinute(svc), rules.HealthyRatio(slo)), float64(length), step)
	}
	return testfile.Test{
		Name:        "healthy traffic at a tenth of every error budget stays quiet",
		Interval:    "1m",
		InputSeries: inputs(svc, steady(rules.HealthyPerMinute(svc), length)),
		AlertTests:  append(burnTest(svc, s, 0, step, 60, float64(length)), noDataTest(svc, float64(length), none)),
		ExprTests:   []testfile.ExprTest{neverActive(svc, float64(length), anyAlert)},
	}
}

// outage: the SLOs under test, which outageGroups found timed alike, fail
// every request after an hour of healthy traffic; the page must fire
// when the math says, and not before. The series run for minLength
// minutes at least.
func outage(svc model.Service, g outageGroup, minLength int) testfile.Test {
	under := g.slos
	s := schedule{}
	var names []string
	for _, slo := range under {
		s[slo.Name] = g.tiers
		names = append(names, describe(slo))
	}
	newWorld(svc, failing(svc, under, 24*60)).coupled(s, historyMinutes, 24*60, 1)
	fast := s.page(under[0].Name)
	fire := firstSettled(svc, s, fast.Latest)
	length := max(historyMinutes+int(fire), minLength)
	name := fmt.Sprintf("a full outage of %s pages %s to %s after it starts", strings.Join(names, ", "),
		genfile.Duration(minutes(fast.Earliest)), genfile.Duration(minutes(fast.Latest)))
	if sharers := slices.DeleteFunc(s.mayPage(), func(n string) bool { return slices.ContainsFunc(under, func(u model.SLO) bool { return u.Name == n }) }); len(sharers) > 0 {
		name += fmt.Sprintf("; %s, reading the same series, pages as the math on what it sees says", strings.Join(sharers, ", "))
	}
	return testfile.Test{
		Name:        name,
		Interval:    "1m",
		InputSeries: inputs(svc, failing(svc, under, length)),
		AlertTests:  burnTest(svc, s, historyMinutes, 1, math.Ceil(fast.Earliest)-1, fire),
	}
}

// failing is the SLOs under test failing every request after an hour.
func failing(svc model.Service, under []model.SLO, length int) func(model.SLO) []phase {
	return change(under, rules.HealthyPerMinute(svc), length, func(model.SLO) float64 { return 1 })
}

// outageTiers predicts each tier of an SLO that fails every request after
// an hour of healthy traffic.
func outageTiers(svc model.Service, slo model.SLO) map[model.Tier]rules.Bounds {
	tr := rules.ChangeAt(rules.HealthyPerMinute(svc), historyMinutes, rules.HealthyRatio(slo), 1)
	return rules.PredictTiers(svc, slo, tr, 24*60, 1)
}

// slowBurn: errors between the ticket and the page rates, in each SLO
// under test, open its tickets and never page. It checks just before each
// SLO's first ticket can open and when all surely have, where every
// other tier's state is known too.
func slowBurn(svc model.Service, under []model.SLO) testfile.Test {
	b := newSlowBurn(svc, under, func(s schedule) {
		newWorld(svc, slowBurning(svc, under, 3*24*60)).coupled(s, historyMinutes, 3*24*60, LongEvaluationInterval.Minutes())
	})
	var spans []string
	for _, slo := range under {
		spans = append(spans, fmt.Sprintf("%s at %s%% errors by %s", describe(slo), num(math.Round(1e9*100*slowRatio(slo))/1e9), genfile.Duration(minutes(b.opens[slo.Name]))))
	}
	return testfile.Test{
		Name:        "a slow burn opens tickets and never pages: " + strings.Join(spans, ", "),
		Interval:    "1m",
		InputSeries: inputs(svc, slowBurning(svc, under, b.length)),
		AlertTests:  b.checks(svc),
		ExprTests:   []testfile.ExprTest{neverActive(svc, float64(b.length), b.quiet())},
	}
}

// slowBurnPlan is when the SLOs under a slow burn open their tickets:
// each tier's bounds, each SLO's latest opening, the minutes just before
// any can open, the first minute every state is known after all opened,
// and the test's length, on the long tests' step.
type slowBurnPlan struct {
	s      schedule
	opens  map[string]float64
	before []float64
	fire   float64
	length int
}

// newSlowBurn plans a slow burn of the SLOs under test; couple adds the
// tiers of the SLOs that share their series.
func newSlowBurn(svc model.Service, under []model.SLO, couple func(schedule)) slowBurnPlan {
	step := LongEvaluationInterval.Minutes()
	b := slowBurnPlan{s: schedule{}, opens: map[string]float64{}}
	last := 0.0
	for _, slo := range under {
		b.s[slo.Name] = rules.PredictTiers(svc, slo, rules.ChangeAt(rules.HealthyPerMinute(svc), historyMinutes, rules.HealthyRatio(slo), slowRatio(slo)), 3*24*60, step)
		first, opens := math.Inf(1), 0.0
		for _, t := range []model.Tier{model.TicketFast, model.TicketSlow} {
			if tb := b.s[slo.Name][t]; !tb.Never {
				first, opens = math.Min(first, tb.Earliest), math.Max(opens, tb.Latest)
			}
		}
		b.opens[slo.Name] = opens
		b.before = append(b.before, math.Ceil(first)-1)
		last = math.Max(last, opens)
	}
	couple(b.s)
	b.fire = firstSettled(svc, b.s, last)
	b.length = historyMinutes + int(math.Ceil(b.fire/step)*step)
	return b
}

// slowBurning is the SLOs under test at their slow ratio after an hour.
func slowBurning(svc model.Service, under []model.SLO, length int) func(model.SLO) []phase {
	return change(under, rules.HealthyPerMinute(svc), length, slowRatio)
}

// quiet is what may not page in a slow burn: the SLOs that share series
// with those under test may.
func (b slowBurnPlan) quiet() alertFilter {
	if others := b.s.mayPage(); len(others) > 0 {
		return append(slices.Clone(pages), pql.NoneOf("slo", others...))
	}
	return pages
}

// checks are the burn alerts just before any ticket can open and once
// all surely have.
func (b slowBurnPlan) checks(svc model.Service) []testfile.AlertTest {
	return burnTest(svc, b.s, historyMinutes, LongEvaluationInterval.Minutes(), append(sortedUnique(b.before), b.fire)...)
}

func sortedUnique(xs []float64) []float64 {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// slowRatio is an error ratio three quarters of the way from the highest
// ticket threshold to the lowest page threshold: every ticket tier fires,
// no page tier can.
func slowRatio(slo model.SLO) float64 {
	ticket, page := 0.0, math.Inf(1)
	for _, t := range model.Tiers {
		r, _ := slo.ErrorRatioThreshold(t)
		f, _ := r.Float64()
		if t.IsPage() {
			page = math.Min(page, f)
		} else {
			ticket = math.Max(ticket, f)
		}
	}
	return ticket + 0.75*(page-ticket)
}

// noData: every series stops; the no-data alert fires within minutes, as
// soon as the lookback delta runs out of samples and `for` has passed. The
// traffic-drop alert, which needs the counter to exist, stays quiet.
func noData(svc model.Service) testfile.Test {
	const stop = 30
	fire := stop + noDataDelay(svc)
	checks := []testfile.AlertTest{noDataTest(svc, stop+3, none), noDataTest(svc, fire, every)}
	if svc.Alerting.TrafficDropSeverity != "" && svc.Traffic != nil {
		checks = append(checks, trafficDropTest(svc, fire, false))
	}
	return testfile.Test{
		Name:        fmt.Sprintf("vanished metrics fire %s within %s", rules.NoDataAlert, genfile.Duration(minutes(noDataDelay(svc)))),
		Interval:    "1m",
		InputSeries: inputs(svc, steady(rules.HealthyPerMinute(svc), stop)),
		AlertTests:  checks,
	}
}

func none(model.SLO) bool  { return false }
func every(model.SLO) bool { return true }

// noDataDelay bounds the time from the last sample to the alert: the
// lookback delta keeps a series for up to 5m, then `for`, then an
// evaluation.
func noDataDelay(svc model.Service) float64 {
	return lookbackDelta.Minutes() + svc.Alerting.NoDataFor.Minutes() + 1
}

// lookbackDelta is how long Prometheus still finds a series after its
// last sample, when no stale marker ends it.
const lookbackDelta = 5 * time.Minute

// noDataTest expects the no-data alert for SLOs slogen cannot feed (their
// series never exist) and for those whose series are gone.
func noDataTest(svc model.Service, minute float64, gone func(model.SLO) bool) testfile.AlertTest {
	exp := []testfile.ExpAlert{}
	for _, slo := range svc.SLOs {
		if gone(slo) || slo.SLI.Inputs == nil {
			exp = append(exp, testfile.ExpAlert{ExpLabels: rules.NoDataLabels(svc, slo), ExpAnnotations: rules.NoDataAnnotationsAt(svc, slo)})
		}
	}
	return testfile.AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: rules.NoDataAlert, ExpAlerts: exp}
}
