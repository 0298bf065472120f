package ruletests

import (
	"math"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Alert tests see only the alerts firing at one instant. These checks read
// ALERTS_FOR_STATE, which Prometheus and promtool store at every
// evaluation for each pending or firing alert, valued at the time it
// became active: they see every alert that was ever active, even pending
// for one evaluation, and when it started.

// alertFilter narrows the alerts a check reads, beyond the service.
type alertFilter []*labels.Matcher

var (
	// anyAlert is every alert of the service.
	anyAlert = alertFilter{}
	// noDataAlerts is the alerts about missing series and missing traffic.
	noDataAlerts = alertFilter{pql.OneOf(labels.AlertName, rules.NoDataAlert, rules.TrafficDropAlert)}
	// pages is what can page for a moment's state: the page tiers and
	// the no-data alerts, but not the error-budget policy's alerts.
	pages = alertFilter{
		pql.OneOf(labels.AlertName, rules.BurnAlert, rules.NoDataAlert, rules.TrafficDropAlert),
		pql.NoneOf("tier", ticketTiers()...),
	}
)

// ticketTiers are the tier labels of the burn alerts that open tickets.
func ticketTiers() []string {
	var names []string
	for _, b := range model.BurnRules {
		if !b.IsPage() {
			names = append(names, b.Name)
		}
	}
	return names
}

// immediatePages is the page when it fires as soon as its condition
// holds. One held by a `for` (the spec's choice, which it warns about)
// can start after the errors stop, since a short window still burns.
func immediatePages(svc model.Service) (alertFilter, bool) {
	return alertFilter{labels.MustNewMatcher(labels.MatchEqual, "tier", model.PageRule.Name)}, svc.Alerting.Hold(model.PageRule) == 0
}

// activeAlerts selects the service's ALERTS_FOR_STATE series that f
// allows, leaving out the no-data alerts of SLOs that have no test inputs:
// their series never exist in a test, so those fire in every one.
func activeAlerts(svc model.Service, f alertFilter) *parser.VectorSelector {
	ms := append([]*labels.Matcher{pql.Eq("service", svc.Name)}, f...)
	var untested []string
	for _, slo := range svc.SLOs {
		if slo.SLI.Inputs == nil {
			untested = append(untested, slo.Name)
		}
	}
	if len(untested) > 0 {
		ms = append(ms, pql.NoneOf("slo", untested...))
	}
	return pql.Metric("ALERTS_FOR_STATE", ms...)
}

// everActive is the highest value of sel's series over the d before the
// evaluation: present when one was active at any evaluation then.
func everActive(sel *parser.VectorSelector, d time.Duration) pql.Expr {
	return pql.Call("max_over_time", pql.Range(sel, d))
}

// neverActive checks at minute end that no alert f allows was active at
// any evaluation up to then.
func neverActive(svc model.Service, end float64, f alertFilter) testfile.ExprTest {
	return testfile.ExprTest{
		Expr:       pql.Print(everActive(activeAlerts(svc, f), minutes(end))),
		EvalTime:   genfile.Duration(minutes(end)),
		ExpSamples: []testfile.ExpSample{},
	}
}

// nothingStartsAfter checks at minute end that the page, when it has no
// `for`, did not start firing after minute since: if it fired while the
// errors lasted it may go on, but it may not start, nor become active
// again after a gap (which Alertmanager would notify as a new FIRING),
// once they stopped. The first check reads the ALERTS series of firing alerts; the
// second, ALERTS_FOR_STATE, for activity that began anew.
func nothingStartsAfter(svc model.Service, since, end float64) []testfile.ExprTest {
	pageTiers, ok := immediatePages(svc)
	if !ok {
		return nil
	}
	firing := pql.Metric("ALERTS", append(pageTiers, pql.Eq("alertstate", "firing"), pql.Eq("service", svc.Name))...)
	after := minutes(end - since)
	firingBefore := pql.Call("max_over_time", pql.Offset(pql.Range(firing, time.Minute), after))
	startedAfter := pql.Gt(everActive(activeAlerts(svc, pageTiers), minutes(end)), pql.Num(math.Trunc(minutes(since).Seconds())))
	return []testfile.ExprTest{{
		Expr:       pql.Print(pql.Unless(everActive(firing, after), firingBefore)),
		EvalTime:   genfile.Duration(minutes(end)),
		ExpSamples: []testfile.ExpSample{},
	}, {
		Expr:       pql.Print(startedAfter),
		EvalTime:   genfile.Duration(minutes(end)),
		ExpSamples: []testfile.ExpSample{},
	}}
}

// noNaN checks at minute end that none of the service's recordings is NaN.
func noNaN(svc model.Service, end float64) testfile.ExprTest {
	all := &parser.VectorSelector{LabelMatchers: []*labels.Matcher{
		pql.Re(labels.MetricName, "slogen:.+"),
		pql.Eq("service", svc.Name),
	}}
	return testfile.ExprTest{
		Expr:       pql.Print(pql.Sub(pql.Count(all), pql.Count(pql.Gt(all, pql.Num(math.Inf(-1)))))),
		EvalTime:   genfile.Duration(minutes(end)),
		ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: 0}},
	}
}

// trafficDropTest expects the traffic-drop alert at minute, or none.
func trafficDropTest(svc model.Service, minute float64, firing bool) testfile.AlertTest {
	exp := []testfile.ExpAlert{}
	if firing {
		exp = append(exp, testfile.ExpAlert{ExpLabels: rules.TrafficDropLabels(svc), ExpAnnotations: rules.TrafficDropAnnotations(svc)})
	}
	return testfile.AlertTest{EvalTime: genfile.Duration(minutes(minute)), Alertname: rules.TrafficDropAlert, ExpAlerts: exp}
}
