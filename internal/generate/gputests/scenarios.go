package gputests

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// scenario is one generated test: a world and what must happen in it.
type scenario struct {
	name   string
	world  world
	expect []expectation
	// eval is the test file's evaluation interval; zero is
	// EvaluationInterval. Day-long scenarios evaluate less often.
	eval time.Duration
}

// Evaluation intervals of the generated test files: the alerts' own, and
// the diagnosis test's, which must run past a day and times only `for`s
// that are multiples of five minutes.
const (
	EvaluationInterval          = time.Minute
	DiagnosisEvaluationInterval = 5 * time.Minute
)

func (sc scenario) evaluation() time.Duration {
	if sc.eval == 0 {
		return EvaluationInterval
	}
	return sc.eval
}

// expectation is one episode of a scenario: from `from` on, fires must
// fire (unless empty) while the quiet alerts stay quiet. Without an alert
// to fire, the quiet ones are checked at checks (default: halfway and at
// the end of the world).
type expectation struct {
	from   time.Duration
	fires  string
	quiet  []string
	checks []time.Duration
}

func fire(alert string, quiet ...string) []expectation {
	return []expectation{{fires: alert, quiet: quiet}}
}

// healthy is the service well inside every threshold: half of each, the
// availability SLO at a fifth of its budget, a second a request, 60 % of
// prompt tokens found in the prefix cache.
func healthy(p predictor) state {
	th := p.th
	return state{
		memUsed: p.total * th.VRAMPercent / 200, temp: th.GPUTempCelsius / 2, util: th.GPUUtilPercent / 2,
		exporterUp: 1, kv: th.KVCachePercent / 200, waiting: math.Floor(th.QueueDepth / 2),
		reqPerMin: 600, errRatio: baseErrors(p), latency: 1, queueSecs: th.QueueSeconds / 10, prefixHit: 0.6,
	}
}

func baseErrors(p predictor) float64 {
	if p.budget > 0 {
		return p.budget / 5
	}
	return 0.001
}

// atThresholds is the service just inside every threshold: one point
// under the percentages, exactly at the counts and degrees (the alerts
// compare with >).
func atThresholds(p predictor) state {
	s, th := healthy(p), p.th
	s.memUsed = p.total * below(th.VRAMPercent) / 100
	s.kv = below(th.KVCachePercent) / 100
	s.waiting, s.temp, s.util = th.QueueDepth, th.GPUTempCelsius, th.GPUUtilPercent
	// Rates a little under their limits: rate() of a counter at exactly
	// its limit may read a hair above it.
	s.throttled, s.replaysPerMin = below(th.ThrottlePercent)/100, 0.9*th.PCIeReplaysPerMinute
	s.preemptPerMin, s.queueSecs = 0.9*th.PreemptionsPerMinute, 0.9*th.QueueSeconds
	return s
}

func below(pct float64) float64 {
	if pct > 2 {
		return pct - 1
	}
	return pct / 2
}

// step is a world that is before until at, then after.
func step(interval, at time.Duration, before, after func(time.Duration) state) world {
	return world{step: interval, at: func(t time.Duration) state {
		if t < at {
			return before(t)
		}
		return after(t)
	}}
}

func constant(s state) func(time.Duration) state { return func(time.Duration) state { return s } }

// simpleScenarios: each threshold alert fires ten minutes after its
// reading crosses, and all stay quiet with every reading at its threshold;
// a missing exporter or GPU fires GPUExporterDown.
func simpleScenarios(p predictor) ([]scenario, []gpualerts.Skip) {
	const change = 10 * time.Minute
	base, th := healthy(p), p.th
	type crossing struct {
		alert, what string
		set         func(*state) bool
	}
	crossings := []crossing{
		{gpualerts.MemoryHigh, "GPU memory passes vram_percent", func(s *state) bool {
			s.memUsed = p.total * halfwayUp(th.VRAMPercent, 100) / 100
			return th.VRAMPercent < 100
		}},
		{gpualerts.KVCacheHigh, "KV cache passes kv_cache_percent", func(s *state) bool {
			s.kv = halfwayUp(th.KVCachePercent, 100) / 100
			return th.KVCachePercent < 100
		}},
		{gpualerts.QueueBacklog, "the queue passes queue_depth", func(s *state) bool { s.waiting = th.QueueDepth + 5; return true }},
		{gpualerts.TemperatureHigh, "a GPU passes gpu_temp_celsius", func(s *state) bool { s.temp = th.GPUTempCelsius + 5; return true }},
		{gpualerts.UtilizationHigh, "utilisation passes gpu_util_percent", func(s *state) bool {
			s.util = halfwayUp(th.GPUUtilPercent, 100)
			return th.GPUUtilPercent < 100
		}},
		{gpualerts.Preemptions, "preemptions pass preemptions_per_minute", func(s *state) bool { s.preemptPerMin = 1.2*th.PreemptionsPerMinute + 1; return true }},
		{gpualerts.QueueTimeHigh, "the mean queue time passes queue_seconds", func(s *state) bool { s.queueSecs = 1.2 * th.QueueSeconds; return true }},
	}
	// Each of these reads a reading of its own, so one world crosses them
	// all, a scenario per alert would cost promtool a run of every rule
	// each. They cross apart, crossingGap after one another: an alert
	// that read another's reading would fire at the other's time.
	together := scenario{name: "the threshold alerts fire when their readings cross, one after another:"}
	var skips []gpualerts.Skip
	var all, what []string
	var sets []func(*state) bool
	for _, c := range crossings {
		probe := base
		if !c.set(&probe) {
			skips = append(skips, gpualerts.Skip{Alert: c.alert, Reason: "its threshold is the metric's maximum, so no test can cross it"})
			continue
		}
		together.expect = append(together.expect, expectation{fires: c.alert, from: change + time.Duration(len(sets))*crossingGap})
		all, what, sets = append(all, c.alert), append(what, c.what), append(sets, c.set)
	}
	together.name += " " + strings.Join(what, ", ")
	together.world = world{step: time.Minute, length: change + time.Duration(len(sets))*crossingGap + 20*time.Minute, at: func(t time.Duration) state {
		s := base
		for i, set := range sets {
			if t >= change+time.Duration(i)*crossingGap {
				set(&s)
			}
		}
		return s
	}}
	out := []scenario{together}
	for _, c := range []crossing{
		{gpualerts.ExporterDown, "the GPU's series vanish", func(s *state) bool { s.gpuGone = true; return true }},
		{gpualerts.ExporterDown, "dcgm-exporter's scrape fails", func(s *state) bool { s.exporterUp = 0; return true }},
	} {
		gone := base
		c.set(&gone)
		w := withLength(step(time.Minute, change, constant(base), constant(gone)), change+20*time.Minute)
		out = append(out, scenario{name: c.alert + " fires when " + c.what, world: w, expect: fire(c.alert)})
	}
	quiet := scenario{name: "every GPU and serving reading at its threshold stays quiet", world: world{step: time.Minute, length: 30 * time.Minute, at: constant(atThresholds(p))},
		expect: []expectation{{quiet: append(all, gpualerts.ExporterDown)}}}
	return append(append(out, quiet), healthScenarios(p)...), skips
}

func halfwayUp(pct, top float64) float64 { return pct + (top-pct)/2 }

// crossingGap is how far apart the threshold alerts' readings cross:
// more than the predictor's doubt about when one fires, so that an alert
// reading another's reading fires visibly early or late.
const crossingGap = 4 * time.Minute

// oomScenarios: N+1 OOMs in a burst fire; N do not.
func oomScenarios(p predictor) []scenario {
	n := float64(p.th.OOMPerDay)
	// A burst this long after the series starts reads as at most N + 1/4
	// through increase()'s extrapolation.
	at := max(time.Hour, time.Duration(2*n)*time.Minute)
	base := healthy(p)
	burst := func(count float64) func(time.Duration) state {
		return func(time.Duration) state { s := base; s.ooms = count; return s }
	}
	return []scenario{
		{name: fmt.Sprintf("%s fires on %d OOMs in a day", gpualerts.OOMEvents, p.th.OOMPerDay+1), world: withLength(step(time.Minute, at, constant(base), burst(n+1)), at+10*time.Minute), expect: fire(gpualerts.OOMEvents)},
		{name: fmt.Sprintf("%s stays quiet on %d OOMs in a day", gpualerts.OOMEvents, p.th.OOMPerDay), world: withLength(step(time.Minute, at, constant(base), burst(n)), at+15*time.Minute),
			expect: []expectation{{quiet: []string{gpualerts.OOMEvents}, checks: []time.Duration{at, at + 15*time.Minute}}}},
	}
}

func withLength(w world, d time.Duration) world { w.length = d; return w }

// healthScenarios test the GPU health alerts, which read fields of their
// own and so cannot disturb one another: one scenario where those that
// hold fire together, and one where those about errors that come and go
// fire, then resolve once none has come for their window. A new XID
// resolves while dcgm-exporter still reports its code; double-bit ECC
// errors, remapped rows and NVLink errors for a few minutes resolve when
// their counters stand. A failed row remap, which stays, is in the first.
func healthScenarios(p predictor) []scenario {
	const change, burst = 10 * time.Minute, 5 * time.Minute
	base, th := healthy(p), p.th
	settled := change + burst + gpualerts.HealthWindow + 3*time.Minute
	held := base
	held.throttled = halfwayUp(th.ThrottlePercent, 100) / 100
	held.replaysPerMin = 2*th.PCIeReplaysPerMinute + 10
	held.remapFailed = 1
	passing := func(t time.Duration) state {
		s := base
		if t >= change {
			s.xid = testXID
		}
		if t >= change && t < change+burst {
			s.dbePerMin, s.rowsPerMin, s.nvlinkPerMin = 1, 1, 2
		}
		return s
	}
	come := []string{gpualerts.XIDErrors, gpualerts.ECCErrors, gpualerts.RowRemapFailure, gpualerts.NVLinkErrors}
	var resolves []expectation
	for _, a := range come {
		resolves = append(resolves, expectation{fires: a})
	}
	resolves = append(resolves, expectation{from: settled, quiet: come, checks: []time.Duration{settled, settled + 5*time.Minute}})
	return []scenario{
		{name: "the GPU health alerts fire: clocks held down past gpu_throttle_percent, PCIe retries past pcie_replays_per_minute, a failed row remap",
			world:  withLength(step(time.Minute, change, constant(base), constant(held)), change+20*time.Minute),
			expect: []expectation{{fires: gpualerts.Throttled}, {fires: gpualerts.PCIeReplays}, {fires: gpualerts.RowRemapFailure}}},
		{name: "a new XID, and double-bit ECC errors, remapped rows and NVLink errors for 5m, fire, then resolve while the exporter still reports the XID",
			world: world{step: time.Minute, length: settled + 5*time.Minute, at: passing}, expect: resolves},
	}
}
