package ruletests

import (
	"fmt"
	"math"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/model"
)

// healthy: every SLO at a tenth of its budget for six hours pages no one.
func healthy(svc model.Service) Test {
	const length = 6 * 60
	s := schedule{}
	for _, slo := range testable(svc) {
		s[slo.Name] = tiers(svc, slo, traffic{perMinute: perMinute(svc), history: 0, before: healthyRatio(slo), after: healthyRatio(slo)}, length)
	}
	return Test{
		Name:        "healthy traffic at a tenth of every error budget stays quiet",
		Interval:    "1m",
		InputSeries: inputs(svc, "", []phase{{minutes: length, perMinute: perMinute(svc)}}),
		AlertTests:  append(burnTest(svc, s, 0, 60, 180, length), noDataTest(svc, length, false)),
	}
}

// outage: one SLO fails every request after an hour of healthy traffic;
// the fast page must fire when the math says, and not before.
func outage(svc model.Service, slo model.SLO) Test {
	tr := traffic{perMinute: perMinute(svc), history: historyMinutes, before: healthyRatio(slo), after: 1}
	s := schedule{slo.Name: tiers(svc, slo, tr, 24*60)}
	fast := s[slo.Name][model.PageFast]
	fire := firstSettled(svc, s, fast.latest)
	length := historyMinutes + int(fire)
	return Test{
		Name: fmt.Sprintf("a full outage of %s fires the fast page %s to %s after it starts", describe(slo),
			rules.Window(minutes(fast.earliest)), rules.Window(minutes(fast.latest))),
		Interval: "1m",
		InputSeries: inputs(svc, slo.Name, []phase{
			{minutes: historyMinutes, perMinute: tr.perMinute, ratio: tr.before},
			{minutes: length - historyMinutes, perMinute: tr.perMinute, ratio: tr.after},
		}),
		AlertTests: burnTest(svc, s, historyMinutes, math.Ceil(fast.earliest)-1, fire),
	}
}

// slowBurn: errors between the ticket and the page rates open tickets and
// never page.
func slowBurn(svc model.Service, slo model.SLO) Test {
	tr := traffic{perMinute: perMinute(svc), history: historyMinutes, before: healthyRatio(slo), after: slowRatio(slo)}
	s := schedule{slo.Name: tiers(svc, slo, tr, 3*24*60)}
	first, last := math.Inf(1), 0.0
	for _, t := range []model.Tier{model.TicketFast, model.TicketSlow} {
		if b := s[slo.Name][t]; !b.never {
			first, last = math.Min(first, b.earliest), math.Max(last, b.latest)
		}
	}
	fire := firstSettled(svc, s, last)
	length := historyMinutes + int(fire)
	return Test{
		Name: fmt.Sprintf("a slow burn of %s at %s%% errors opens tickets by %s and never pages", describe(slo),
			num(100*tr.after), rules.Window(minutes(last))),
		Interval: "1m",
		InputSeries: inputs(svc, slo.Name, []phase{
			{minutes: historyMinutes, perMinute: tr.perMinute, ratio: tr.before},
			{minutes: length - historyMinutes, perMinute: tr.perMinute, ratio: tr.after},
		}),
		AlertTests: burnTest(svc, s, historyMinutes, math.Ceil(first)-1, fire),
	}
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

// lowTraffic: five requests an hour, one of them failing, is a burn rate
// that would page at most objectives; the guard keeps every tier quiet
// while the long windows hold fewer requests than min_events.
func lowTraffic(svc model.Service) Test {
	const length = 6 * 60
	s := schedule{}
	for _, slo := range testable(svc) {
		s[slo.Name] = tiers(svc, slo, traffic{perMinute: 5.0 / 60, before: 0.2, after: 0.2}, length)
	}
	ps := []phase{{minutes: length, perMinute: 5.0 / 60, ratio: 0.2}}
	var in []Series
	for _, slo := range testable(svc) {
		in = append(in, inputSeries(slo, ps)...)
	}
	return Test{
		Name:        fmt.Sprintf("five requests an hour, one in five failing, is below the %d-request guard and pages no one", svc.Alerting.MinEvents),
		Interval:    "1m",
		InputSeries: in,
		AlertTests:  burnTest(svc, s, 0, 30, 60, 180, length),
	}
}

// noData: every series stops; the no-data alert fires within minutes, as
// soon as the base window runs out of samples and `for` has passed.
func noData(svc model.Service) Test {
	const stop = 30
	fire := stop + noDataDelay(svc)
	return Test{
		Name:        fmt.Sprintf("vanished metrics fire %s within %s", rules.NoDataAlert, rules.Window(minutes(noDataDelay(svc)))),
		Interval:    "1m",
		InputSeries: inputs(svc, "", []phase{{minutes: stop, perMinute: perMinute(svc)}}),
		AlertTests:  []AlertTest{noDataTest(svc, stop+3, false), noDataTest(svc, fire, true)},
	}
}

// noDataDelay bounds the time from the last sample to the alert: the base
// window keeps a rate for up to its length, then `for`, then an evaluation.
func noDataDelay(svc model.Service) float64 {
	return model.BaseWindow.Minutes() + svc.Alerting.NoDataFor.Minutes() + 1
}

// noDataTest expects the no-data alert for SLOs slogen cannot feed (their
// series never exist) and, when gone, for every other SLO too.
func noDataTest(svc model.Service, minute float64, gone bool) AlertTest {
	exp := []ExpAlert{}
	for _, slo := range svc.SLOs {
		if gone || slo.SLI.Inputs == nil {
			exp = append(exp, ExpAlert{ExpLabels: rules.NoDataLabels(svc, slo), ExpAnnotations: rules.NoDataAnnotations(svc)})
		}
	}
	return AlertTest{EvalTime: rules.Window(minutes(minute)), Alertname: rules.NoDataAlert, ExpAlerts: exp}
}

func tiers(svc model.Service, slo model.SLO, tr traffic, limit float64) map[model.Tier]bounds {
	out := map[model.Tier]bounds{}
	for _, t := range model.Tiers {
		out[t] = predict(tr, slo, t, svc.Alerting, limit)
	}
	return out
}
