package ruletests

import (
	"fmt"
	"math"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// pageGoesOn expects, at the minute after a full outage ends when the
// fast tier's short window has surely forgotten it, the page still
// firing on the slow tier, as the one alert it was: Alertmanager sees no
// new alert and sends no new notification. It returns false where the
// slow tier cannot be shown to hold there, or the page to have fired.
func pageGoesOn(svc model.Service, avail model.SLO, tr rules.Traffic, s schedule, ended float64) (testfile.AlertTest, float64, bool) {
	fast := model.TierWindows[model.PageFast]
	x := ended + fast.Short.Minutes() + rules.Lag(fast, 1)
	if page := s.page(avail.Name); page.Never || page.Latest > x || !conditionHolds(tr, avail, model.PageSlow, svc.Alerting, x, EvaluationInterval.Minutes()) {
		return testfile.AlertTest{}, 0, false
	}
	// A ticket whose `for` is short may have opened by then too.
	exp, ok := s.expectAt(svc, x)
	if !ok {
		return testfile.AlertTest{}, 0, false
	}
	return testfile.AlertTest{
		EvalTime:  genfile.Duration(minutes(historyMinutes + x)),
		Alertname: rules.BurnAlert,
		ExpAlerts: exp,
	}, x, true
}

// conditionHolds reports whether a tier's condition holds at minute x on
// the exact windows, and on Prometheus 3's one evaluation shorter: after
// an outage the recordings, which trail, read more errors still. The
// rules are evaluated every step minutes.
func conditionHolds(tr rules.Traffic, slo model.SLO, t model.Tier, a model.Alerting, x, step float64) bool {
	threshold, _ := slo.ErrorRatioThreshold(t)
	th, _ := threshold.Float64()
	w := model.TierWindows[t]
	for _, win := range []float64{w.Long.Minutes(), w.Short.Minutes(), w.Long.Minutes() - 1, w.Short.Minutes() - 1} {
		if !(tr.WindowRatio(x, win, step) > th) {
			return false
		}
	}
	return tr.Events(x, w.Long.Minutes()) >= float64(a.MinEvents)
}

// Young rule sets: the outage starts youngHistory minutes after the
// series (and the rules) do, and the test watches youngWatch minutes
// after it: past the slow ticket's 6h short window's reach for its 3h
// `for`, as far as the defaults go.
const (
	youngHistory = 120
	youngWatch   = 4 * 60
)

// youngOutage: rules deployed two hours before a short full outage, one
// that a full day of history would not ticket (ten minutes at most, and
// two of the period group's samples short of what the tickets' thresholds
// allow, as the 5m samples every 4m can weigh a minute twice), open no
// ticket: the day and three-day windows count the time before the
// rules' first samples as error-free at the traffic seen, instead of
// weighing the outage as if it were the whole day. It returns false where
// so short an outage cannot be staged a minute at a time, or the math
// says a ticket is due anyway.
func youngOutage(svc model.Service, avail model.SLO) (testfile.Test, bool) {
	length := math.Min(10, math.Floor(youngAllowance(avail)-2*rules.PeriodInterval.Minutes()))
	if length < 1 {
		return testfile.Test{}, false
	}
	pm := rules.HealthyPerMinute(svc)
	h := rules.HealthyRatio(avail)
	tr := rules.Traffic{Start: -youngHistory, Stretches: []rules.Stretch{{Until: 0, PerMinute: pm, Ratio: h}, {Until: length, PerMinute: pm, Ratio: 1}, {Until: math.Inf(1), PerMinute: pm, Ratio: h}}}
	end := length + youngWatch
	for _, t := range []model.Tier{model.TicketFast, model.TicketSlow} {
		for x := 0.0; x <= end; x++ {
			if conditionHolds(tr, avail, t, svc.Alerting, x, LongEvaluationInterval.Minutes()) {
				return testfile.Test{}, false
			}
		}
	}
	phases := func(slo model.SLO) []phase {
		healthy := func(minutes int) phase { return phase{minutes: minutes, perMinute: pm, ratio: rules.HealthyRatio(slo)} }
		return []phase{healthy(youngHistory), outagePhase(avail, slo, pm, int(length)), healthy(youngWatch)}
	}
	tickets := alertFilter{
		labels.MustNewMatcher(labels.MatchEqual, labels.AlertName, rules.BurnAlert),
		pql.OneOf("tier", ticketTiers()...),
	}
	return testfile.Test{
		Name: fmt.Sprintf("on rules deployed %s before it, a full outage of %s of %s, which a full day of history would not ticket, opens no ticket in the %s after it",
			genfile.Duration(minutes(youngHistory)), genfile.Duration(minutes(length)), describe(avail), genfile.Duration(minutes(youngWatch))),
		Interval:    "1m",
		InputSeries: inputs(svc, phases),
		ExprTests:   []testfile.ExprTest{neverActive(svc, youngHistory+end, tickets)},
	}, true
}

// youngAllowance is the most minutes of full outage a day may hold
// without reaching the fast ticket's error ratio, nor three days the slow
// one's, above the healthy errors.
func youngAllowance(slo model.SLO) float64 {
	allow := math.Inf(1)
	for _, t := range []model.Tier{model.TicketFast, model.TicketSlow} {
		threshold, _ := slo.ErrorRatioThreshold(t)
		th, _ := threshold.Float64()
		allow = math.Min(allow, (th-rules.HealthyRatio(slo))*model.TierWindows[t].Long.Minutes())
	}
	return allow
}
