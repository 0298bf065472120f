package gputests

import (
	"fmt"
	"math"
	"time"

	"github.com/slogen-dev/slogen/generate/gpualerts"
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
// availability SLO at a fifth of its budget, a second a request.
func healthy(p predictor) state {
	th := p.th
	return state{
		memUsed: p.total * th.VRAMPercent / 200, temp: th.GPUTempCelsius / 2, util: th.GPUUtilPercent / 2,
		exporterUp: 1, kv: th.KVCachePercent / 200, waiting: math.Floor(th.QueueDepth / 2),
		reqPerMin: 600, errRatio: baseErrors(p), latency: 1,
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
// reading crosses, and all stay quiet with every reading at its threshold.
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
		{gpualerts.XIDErrors, "a GPU reports XID 79", func(s *state) bool { s.xid = testXID; return true }},
		{gpualerts.Throttled, "a GPU's clocks are held down past gpu_throttle_percent", func(s *state) bool {
			s.throttled = halfwayUp(th.ThrottlePercent, 100) / 100
			return true
		}},
		{gpualerts.PCIeReplays, "PCIe retries pass pcie_replays_per_minute", func(s *state) bool { s.replaysPerMin = 2*th.PCIeReplaysPerMinute + 10; return true }},
		{gpualerts.ECCErrors, "a GPU counts double-bit ECC errors", func(s *state) bool { s.dbePerMin = 1; return true }},
		{gpualerts.RowRemapFailure, "a GPU fails to remap a row", func(s *state) bool { s.remapFailed = 1; return true }},
		{gpualerts.RowRemapFailure, "a GPU remaps rows for uncorrectable errors", func(s *state) bool { s.rowsPerMin = 1; return true }},
		{gpualerts.NVLinkErrors, "a GPU counts NVLink errors", func(s *state) bool { s.nvlinkPerMin = 2; return true }},
		{gpualerts.ExporterDown, "the GPU's series vanish", func(s *state) bool { s.gpuGone = true; return true }},
		{gpualerts.ExporterDown, "dcgm-exporter's scrape fails", func(s *state) bool { s.exporterUp = 0; return true }},
	}
	var out []scenario
	var skips []gpualerts.Skip
	var all []string
	for _, c := range crossings {
		after := base
		if !c.set(&after) {
			skips = append(skips, gpualerts.Skip{Alert: c.alert, Reason: "its threshold is the metric's maximum, so no test can cross it"})
			continue
		}
		w := withLength(step(time.Minute, change, constant(base), constant(after)), change+20*time.Minute)
		out = append(out, scenario{name: c.alert + " fires when " + c.what, world: w, expect: fire(c.alert)})
		all = append(all, c.alert)
	}
	quiet := scenario{name: "every GPU and serving reading at its threshold stays quiet", world: world{step: time.Minute, length: 30 * time.Minute, at: constant(atThresholds(p))},
		expect: []expectation{{quiet: unique(append(all, gpualerts.ExporterDown))}}}
	return append(append(out, quiet), resolveScenarios(p)...), skips
}

func halfwayUp(pct, top float64) float64 { return pct + (top-pct)/2 }

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

func unique(ss []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// resolveScenarios: the health alerts about errors that come and go
// resolve once none has come for their window. A new XID fires, then
// resolves while dcgm-exporter still reports its code; double-bit ECC
// errors, remapped rows and NVLink errors for a few minutes fire, then
// resolve when their counters stand.
func resolveScenarios(p predictor) []scenario {
	const change, burst = 10 * time.Minute, 5 * time.Minute
	base := healthy(p)
	after := func(set func(*state)) func(time.Duration) state {
		return func(t time.Duration) state {
			s := base
			if t >= change {
				set(&s)
			}
			return s
		}
	}
	during := func(set func(*state)) func(time.Duration) state {
		return func(t time.Duration) state {
			s := base
			if t >= change && t < change+burst {
				set(&s)
			}
			return s
		}
	}
	settled := change + burst + gpualerts.HealthWindow + 3*time.Minute
	resolves := func(alert string) []expectation {
		return []expectation{{fires: alert}, {from: settled, quiet: []string{alert}, checks: []time.Duration{settled, settled + 5*time.Minute}}}
	}
	return []scenario{
		{name: gpualerts.XIDErrors + " fires on a new XID and resolves while the exporter still reports it", expect: resolves(gpualerts.XIDErrors),
			world: world{step: time.Minute, length: settled + 5*time.Minute, at: after(func(s *state) { s.xid = testXID })}},
		{name: gpualerts.ECCErrors + " resolves once the double-bit errors stop", expect: resolves(gpualerts.ECCErrors),
			world: world{step: time.Minute, length: settled + 5*time.Minute, at: during(func(s *state) { s.dbePerMin = 1 })}},
		{name: gpualerts.RowRemapFailure + " resolves once no more rows are remapped", expect: resolves(gpualerts.RowRemapFailure),
			world: world{step: time.Minute, length: settled + 5*time.Minute, at: during(func(s *state) { s.rowsPerMin = 1 })}},
		{name: gpualerts.NVLinkErrors + " resolves once the NVLink errors stop", expect: resolves(gpualerts.NVLinkErrors),
			world: world{step: time.Minute, length: settled + 5*time.Minute, at: during(func(s *state) { s.nvlinkPerMin = 2 })}},
	}
}
