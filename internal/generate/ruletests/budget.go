package ruletests

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// budgetCrossing brackets when an SLO's budget left first falls to a
// share, in minutes after every request starts to fail. The budget left
// is 1 − (failed minutes) / (budget × period) at a steady request rate,
// counting the healthy hour's few failures. The recordings trail by the
// base window and two evaluations (the sampling, then the alert), and
// counting samples of the period group puts the time covered one
// evaluation either way.
func budgetCrossing(slo model.SLO, left, step float64) rules.Bounds {
	budget, _ := slo.ErrorBudget().Float64()
	at := (1-left)*budget*slo.Period.Duration.Minutes() - rules.HealthyRatio(slo)*historyMinutes
	return rules.Bounds{Earliest: at - step - 1, Latest: at + model.BaseWindow.Minutes() + 3*step + 1}
}

// budgetStates is, per SLO, when its budget runs low and when it is gone.
type budgetStates map[string][2]rules.Bounds

// expect lists the SLOs whose low-budget and exhausted alerts must fire at
// minute m, or ok=false when one may or may not.
func (b budgetStates) expect(svc model.Service, m float64) (low, gone []model.SLO, ok bool) {
	for _, slo := range testable(svc) {
		l, g := b[slo.Name][0], b[slo.Name][1]
		switch {
		case m >= g.Latest:
			gone = append(gone, slo)
		case m < g.Earliest && !l.Never && m >= l.Latest:
			low = append(low, slo)
		case m >= g.Earliest || (!l.Never && m >= l.Earliest):
			return nil, nil, false
		}
	}
	return low, gone, true
}

// budgetSpent: after an hour of healthy traffic every request fails until
// the first SLO's budget is gone. The low-budget alert fires once no more
// than budget_warn_remaining is left, and gives way to the exhausted one.
// It checks just before the first SLO runs low, once it surely has, just
// before its budget can be gone and once it surely is, wherever every
// SLO's state is known.
func budgetSpent(svc model.Service) testfile.Test {
	step := LongEvaluationInterval.Minutes()
	warn := svc.Alerting.BudgetWarnRemaining
	states := budgetStates{}
	first := model.SLO{}
	for _, slo := range testable(svc) {
		low := budgetCrossing(slo, warn, step)
		low.Never = warn == 0 // "<= 0 > 0" holds for no value
		states[slo.Name] = [2]rules.Bounds{low, budgetCrossing(slo, 0, step)}
		if first.Name == "" || states[slo.Name][1].Latest < states[first.Name][1].Latest {
			first = slo
		}
	}
	low, gone := states[first.Name][0], states[first.Name][1]
	var checks []testfile.AlertTest
	done := map[float64]bool{}
	before := func(m float64) float64 { return math.Floor((historyMinutes+math.Ceil(m)-1)/step) * step }
	after := func(m float64) float64 { return math.Ceil((historyMinutes+m)/step) * step }
	for _, t := range []float64{before(low.Earliest), after(low.Latest), before(gone.Earliest), after(gone.Latest)} {
		if t < historyMinutes || done[t] {
			continue
		}
		if l, g, ok := states.expect(svc, t-historyMinutes); ok {
			done[t] = true
			checks = append(checks, budgetTest(svc, rules.BudgetLowAlert, t, l), budgetTest(svc, rules.BudgetGoneAlert, t, g))
		}
	}
	length := historyMinutes + int(math.Ceil(gone.Latest/step)*step)
	return testfile.Test{
		Name: fmt.Sprintf("every request failing spends the error budget: %s has %s left by %s and none by %s",
			describe(first), rules.SharePercent(warn), genfile.Duration(minutes(low.Latest)), genfile.Duration(minutes(gone.Latest))),
		Interval:    "1m",
		InputSeries: inputs(svc, change(testable(svc), rules.HealthyPerMinute(svc), length, func(model.SLO) float64 { return 1 })),
		AlertTests:  checks,
	}
}

// budgetTest expects one error-budget alert for each of the SLOs at minute.
func budgetTest(svc model.Service, alert string, minute float64, slos []model.SLO) testfile.AlertTest {
	annotations := rules.BudgetLowAnnotations
	if alert == rules.BudgetGoneAlert {
		annotations = rules.BudgetGoneAnnotations
	}
	exp := []testfile.ExpAlert{}
	for _, slo := range slos {
		ls := merged(rules.BudgetLabels(svc), inputGroup(slo))
		ls["slo"] = slo.Name
		as := annotations(svc)
		for k, v := range as {
			as[k] = strings.ReplaceAll(v, rules.SLOTemplate, slo.Name)
		}
		exp = append(exp, testfile.ExpAlert{ExpLabels: ls, ExpAnnotations: as})
	}
	slices.SortFunc(exp, func(a, b testfile.ExpAlert) int { return strings.Compare(a.ExpLabels["slo"], b.ExpLabels["slo"]) })
	return testfile.AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: alert, ExpAlerts: exp}
}
