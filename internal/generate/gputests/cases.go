package gputests

import (
	"maps"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// alertCase is one alert's test case, whole in a file of its own
// (case_<alert>.go), which registers it in init: the runtime gauges it
// reads beyond the shared ones, the scenarios where it fires and where it
// stays quiet, when its condition holds, and the value its annotations
// show. The alerts before cases were tested by the shared scenarios
// (scenarios*.go) and the predictor's switches; a new alert needs only
// its case.
type alertCase struct {
	gauges    []caseGauge
	scenarios func(predictor) []scenario
	// condition is the verdict on the alert's expression at t, worked out
	// from the world, never from the expression.
	condition func(p predictor, w world, t time.Duration) verdict
	// value is the alert's value at one sample; sample reads a reading
	// there.
	value func(sample func(reading) float64) (float64, bool)
}

// caseGauge is a runtime gauge a case reads: the metric a service names
// for it (zero where it has none), and what it reads of the world's state.
// name keys its reading; cases' gauges have names of their own.
type caseGauge struct {
	name   string
	metric func(model.Metrics) model.Selector
	read   func(state) float64
}

// cases are the alerts' cases, by alert name.
var cases = map[string]alertCase{}

// caseGauges are the cases' gauges by name, each with its case's alert.
var caseGauges = map[string]ownedGauge{}

type ownedGauge struct {
	alert string
	read  func(state) float64
}

// addCase registers an alert's case; its file's init calls it.
func addCase(alert string, c alertCase) {
	if _, dup := cases[alert]; dup {
		panic("gputests: two cases of " + alert)
	}
	for _, g := range c.gauges {
		if _, dup := caseGauges[g.name]; dup {
			panic("gputests: two case gauges named " + g.name)
		}
		caseGauges[g.name] = ownedGauge{alert, g.read}
	}
	cases[alert] = c
}

// caseOrder is the cases' alerts in a fixed order, for the series and
// scenarios they add.
func caseOrder() []string { return slices.Sorted(maps.Keys(cases)) }

// caseReadings are the series the cases read that the service exports.
func caseReadings(m model.Metrics) []runtimeReading {
	var out []runtimeReading
	for _, alert := range caseOrder() {
		for _, g := range cases[alert].gauges {
			if sel := g.metric(m); !sel.IsZero() {
				out = append(out, runtimeReading{sel, reading{of: caseReading, name: g.name}})
			}
		}
	}
	return out
}

// asserts reports whether the scenario checks the alert.
func (pl *planned) asserts(alert string) bool {
	return slices.ContainsFunc(pl.checks, func(c check) bool { return c.alert == alert })
}

// writes reports whether the scenario's test has the reading's series: a
// case's gauge only where its alert is checked, so that a gauge only one
// alert reads does not grow every test file.
func (pl *planned) writes(r reading) bool {
	return r.of != caseReading || pl.asserts(caseGauges[r.name].alert)
}

// caseScenarios are every case's scenarios.
func caseScenarios(p predictor) []scenario {
	var out []scenario
	for _, alert := range caseOrder() {
		out = append(out, cases[alert].scenarios(p)...)
	}
	return out
}
