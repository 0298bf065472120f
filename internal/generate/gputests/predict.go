package gputests

import (
	"math"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// verdict is what an alert's condition can be at one evaluation: any
// when some reading of the scenario makes it true, all when every one
// does. Readings differ where Prometheus versions or sampling could: a
// window's edge, a left-open range, a lookback boundary.
type verdict struct{ any, all bool }

func sure(b bool) verdict { return verdict{b, b} }

var unknown = verdict{any: true}

func (v verdict) and(o verdict) verdict { return verdict{v.any && o.any, v.all && o.all} }

func (v verdict) or(o verdict) verdict { return verdict{v.any || o.any, v.all || o.all} }

// oneOf merges readings: true in some, true in all.
func oneOf(vs ...verdict) verdict {
	out := verdict{false, true}
	for _, v := range vs {
		out.any = out.any || v.any
		out.all = out.all && v.all
	}
	return out
}

// predictor evaluates the service's alert conditions on a scenario,
// independently of Prometheus and of the rules' expressions, to say when
// each must and cannot fire. It knows what the plan states as facts.
type predictor struct {
	th     model.Thresholds
	total  float64 // MiB of the GPU
	budget float64 // the availability SLO's error budget, 0 without one
	errors bool    // the diagnosis reads errors
	// hitsCounted: the prefix cache's hit ratio is its token counters',
	// weighted by traffic, not a gauge's average over time.
	hitsCounted bool
}

// newPredictor reads the facts from the model: the diagnosis reads errors
// from the availability SLO, and they count as up above its budget; the
// prefix cache's hit ratio comes from counters where the runtime has them.
func newPredictor(plan gpualerts.Plan) predictor {
	m := plan.Service.Metrics
	p := predictor{th: plan.Service.Thresholds, total: gpuMemory(plan.Service), hitsCounted: !m.PrefixCacheHits.IsZero() && !m.PrefixCacheQueries.IsZero()}
	if slo, ok := plan.Service.Availability(); ok {
		p.errors = true
		p.budget, _ = slo.ErrorBudget().Float64()
	}
	return p
}

// gpuMemory is the memory of the service's GPU model, or an H100's.
func gpuMemory(svc model.Service) float64 {
	if svc.GPU.MemoryMiB > 0 {
		return float64(svc.GPU.MemoryMiB)
	}
	return 81559
}

// condition is the verdict on an alert's expression at time t.
func (p predictor) condition(alert string, w world, t time.Duration) verdict {
	if c, ok := cases[alert]; ok {
		return c.condition(p, w, t)
	}
	if v, ok := p.health(alert, w, t); ok {
		return v
	}
	s, th := w.at(t), p.th
	switch alert {
	case gpualerts.MemoryHigh:
		return sure(!s.gpuGone && s.memUsed/p.total > th.VRAMPercent/100)
	case gpualerts.KVCacheHigh:
		return sure(s.kv > th.KVCachePercent/100)
	case gpualerts.QueueBacklog:
		return sure(s.waiting > th.QueueDepth)
	case gpualerts.TemperatureHigh:
		return sure(!s.gpuGone && s.temp > th.GPUTempCelsius)
	case gpualerts.UtilizationHigh:
		return sure(!s.gpuGone && s.util > th.GPUUtilPercent)
	case gpualerts.OOMEvents:
		return sure(s.ooms-w.at(max(t-gpualerts.Baseline, 0)).ooms >= float64(th.OOMPerDay+1))
	case gpualerts.ExporterDown:
		return p.exporterDown(w, t)
	case gpualerts.MemoryLeak:
		return p.leak(w, t)
	}
	return oneOf(p.diagnosis(alert, w.shifted(-p.blur(w)), t), p.diagnosis(alert, w, t), p.diagnosis(alert, w.shifted(p.blur(w)), t))
}

// blur is how far sampling can move a change within a window: two input
// intervals.
func (p predictor) blur(w world) time.Duration { return 2 * w.step }

// exporterDown: up is 0 while the GPU's series came from that exporter
// within ExporterMemory, or the GPU's last sample has left the 5m
// lookback, which Prometheus 3 counts left-open and 2.42 closed.
func (p predictor) exporterDown(w world, t time.Duration) verdict {
	last := time.Duration(-1)
	for _, at := range w.samples() {
		if at <= t && !w.at(at).gpuGone {
			last = at
		}
	}
	if last < 0 {
		return sure(true)
	}
	const lookback = 5 * time.Minute
	gone := verdict{any: t-last >= lookback, all: t-last > lookback}
	if w.at(t).exporterUp == 0 {
		served := verdict{any: t-last <= gpualerts.ExporterMemory, all: t-last < gpualerts.ExporterMemory}
		return verdict{any: served.any || gone.any, all: served.all || gone.all}
	}
	return gone
}

// fires reports whether the alert is sure to be firing at t: its
// condition held at every evaluation of the last `for`.
func fires(tl *timeline, hold time.Duration, t time.Duration) bool {
	for m := tl.index(t - hold); m <= tl.index(t); m++ {
		if m < 0 || !tl.at(m).all {
			return false
		}
	}
	return true
}

// quiet reports whether the alert is sure not to be firing at t: its
// condition was false at some evaluation within the last `for`.
func quiet(tl *timeline, hold time.Duration, t time.Duration) bool {
	for m := max(tl.index(t-hold), 0); m <= tl.index(t); m++ {
		if !tl.at(m).any {
			return true
		}
	}
	return false
}

// timeline is the verdict at each evaluation, one every eval as the test
// file's evaluation_interval says. Verdicts are worked out on demand and
// kept: the checks need a few evaluations around each change, not every
// one of a day-long scenario.
type timeline struct {
	p     predictor
	alert string
	w     world
	eval  time.Duration
	steps int
	memo  map[int]verdict
}

func (p predictor) timeline(alert string, w world, eval time.Duration) *timeline {
	return &timeline{p: p, alert: alert, w: w, eval: eval, steps: int(w.length/eval) + 1, memo: map[int]verdict{}}
}

func (tl *timeline) at(m int) verdict {
	v, ok := tl.memo[m]
	if !ok {
		v = tl.p.condition(tl.alert, tl.w, time.Duration(m)*tl.eval)
		tl.memo[m] = v
	}
	return v
}

// index is the evaluation at or before d.
func (tl *timeline) index(d time.Duration) int {
	return int(math.Floor(float64(d) / float64(tl.eval)))
}
