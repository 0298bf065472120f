package gputests

import (
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// InferenceEngineStalled's case: requests wait on a replica that runs
// none. Its running gauge reads the world by Little's law, requests in
// flight being the completion rate times the mean latency, so a world
// whose engine completes nothing runs nothing.
func init() {
	addCase(gpualerts.EngineStalled, alertCase{
		gauges:    []caseGauge{{name: "running", metric: func(m model.Metrics) model.Selector { return m.Running }, read: running}},
		scenarios: stalledScenarios,
		condition: func(_ predictor, w world, t time.Duration) verdict {
			s := w.at(t)
			return sure(s.waiting > 0 && running(s) == 0)
		},
		value: func(sample func(reading) float64) (float64, bool) { return sample(reading{of: queued}), true },
	})
}

func running(s state) float64 { return s.reqPerMin / 60 * s.latency }

// stalledScenarios: one world, so that the test file carries its series
// once. The engine idles (nothing queued, nothing running) and stalls
// briefly, shorter than the alert's `for`, and it stays quiet; then it
// stops with three requests queued, and the alert fires its `for` later.
func stalledScenarios(p predictor) []scenario {
	const alert = gpualerts.EngineStalled
	base := healthy(p)
	stalled, idle := base, base
	stalled.reqPerMin, stalled.waiting = 0, 3
	idle.reqPerMin, idle.waiting = 0, 0
	const idleFrom, briefFrom, stopFrom = 10 * time.Minute, 25 * time.Minute, 35 * time.Minute
	at := func(t time.Duration) state {
		switch {
		case t >= stopFrom, t >= briefFrom && t < briefFrom+3*time.Minute:
			return stalled
		case t >= idleFrom && t < briefFrom:
			return idle
		}
		return base
	}
	return []scenario{{
		name:  alert + " stays quiet on an idle engine and a brief stall, and fires when requests wait on an engine that runs none",
		world: world{step: time.Minute, length: stopFrom + 15*time.Minute, at: at},
		expect: []expectation{
			{quiet: []string{alert}, checks: []time.Duration{briefFrom - time.Minute, briefFrom + 2*time.Minute}},
			{from: stopFrom, fires: alert},
		},
	}}
}
