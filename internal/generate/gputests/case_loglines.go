package gputests

import (
	"maps"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// The alerts on fatal log lines' cases: the Collector's count of one
// line on one pod, which its prometheus exporter writes only once a line
// came, so that its series appears at 1. One line fires the alert at its
// minute; a second, while the series is there, fires it again.
func init() {
	for alert := range gpualerts.LogEvents {
		addCase(alert, alertCase{
			gauges:    []caseGauge{{name: logGauge(alert), metric: func(model.Metrics) model.Selector { return model.Selector{} }, read: loggedLines}},
			scenarios: func(p predictor) []scenario { return logScenarios(p, alert) },
			condition: func(_ predictor, w world, t time.Duration) verdict { return lineWithin(w, t) },
			value:     func(func(reading) float64) (float64, bool) { return 0, false },
		})
	}
}

// logGauge names an alert's count among the cases' gauges. Its metric is
// none of the runtime's: logInputs labels its series as the exporter does.
func logGauge(alert string) string { return "log lines of " + alert }

// loggedLines is the count's value; before the first line there is none.
func loggedLines(s state) float64 { return gone(s.lines, s.lines == 0) }

// lineWithin: a line was counted within the last HealthWindow, surely
// when after its start, maybe when at it (a range's left end is closed in
// Prometheus 2.42, open in 3).
func lineWithin(w world, t time.Duration) verdict {
	from := t - gpualerts.HealthWindow
	for at := t; at >= max(from, 0); at -= w.step {
		before := 0.0
		if at > 0 {
			before = w.at(at - w.step).lines
		}
		if w.at(at).lines > before {
			return verdict{any: true, all: at > from}
		}
	}
	return sure(false)
}

// logScenarios: the healthy pod logs nothing for ten minutes, then one line,
// which is the count's first sample; the alert fires at once and resolves
// HealthWindow later. Then a second line, which raises the count.
func logScenarios(p predictor, alert string) []scenario {
	const first, second = 10 * time.Minute, 30 * time.Minute
	at := func(t time.Duration) state {
		s := healthy(p)
		switch {
		case t >= second:
			s.lines = 2
		case t >= first:
			s.lines = 1
		}
		return s
	}
	return []scenario{{
		name:  alert + " fires at the minute its pod logs the line, first as a count that appears at 1, then as a count that grows",
		world: world{step: time.Minute, length: second + 15*time.Minute, at: at},
		expect: []expectation{
			{from: 0, fires: alert},
			{from: first + gpualerts.HealthWindow + time.Minute, fires: alert},
		},
	}}
}

// logInputs are the counts of the service's fatal lines, labelled as the
// Collector's prometheus exporter writes them: the count connector's
// attributes, and the Collector's own job and instance as the scrape
// adds them, not the service's selector.
func logInputs(svc model.Service) []input {
	var out []input
	for _, alert := range slices.Sorted(maps.Keys(gpualerts.LogEvents)) {
		if !gpualerts.HasLogAlert(svc, alert) {
			continue
		}
		metric := gpualerts.LogCountMetric(gpualerts.LogEvents[alert])
		ls := labels.FromStrings(labels.MetricName, metric, "service_name", svc.Name, "k8s_namespace_name", testNamespace,
			"k8s_pod_name", testPod, "job", "otelcol", "instance", "10.0.0.3:8889")
		out = append(out, input{metric: metric, series: ls.String(), labels: ls, reading: reading{of: caseReading, name: logGauge(alert)}})
	}
	return out
}
