package gpualerts

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// recordings are each quadrant, and the prefix cache's hit ratio, now
// and on the same hour a day earlier.
func (q quadrants) recordings(svc model.Service) []rules.Rule {
	var rs []rules.Rule
	for _, s := range []*signal{q.latency, q.throughput, q.errors, q.memory, q.hitRatio} {
		if s == nil {
			continue
		}
		ls := map[string]string{"service": svc.Name}
		rs = append(rs,
			rules.Rule{Record: s.record, Expr: s.expr(0), Labels: ls},
			rules.Rule{Record: s.record + dayAgo, Expr: s.expr(Baseline), Labels: ls})
	}
	return rs
}

// versus compares a recorded quadrant with its value a day earlier.
func versus(svc model.Service, record string, op parser.ItemType, factor float64) pql.Expr {
	return pql.Binary(op, recorded(svc, record), pql.Mul(pql.Num(factor), recorded(svc, record+dayAgo)))
}

// all is every term, one a line.
func all(terms ...pql.Expr) pql.Expr { return pql.Chain(parser.LAND, pql.Match{}, terms...) }

// saturated: latency up while throughput falls. The GPUs do all they can
// and requests queue.
func (q quadrants) saturated(svc model.Service) (alertDef, *Skip) {
	if q.latency == nil || q.throughput == nil {
		return alertDef{}, &Skip{Saturated, "needs the latency and throughput quadrants"}
	}
	return alertDef{
		expr:        all(versus(svc, LatencyMean, parser.GTR, LatencyUp), versus(svc, Throughput, parser.LSS, ThroughputLow)),
		summary:     "saturated: latency up, throughput down",
		title:       text("saturated: mean latency %ss, over %s× the same hour yesterday, while throughput fell", valueNumber, num(LatencyUp)),
		description: text("Over the last hour the mean latency of %s, %ss, is more than %s× and its throughput less than %s× what they were at the same hour yesterday: the GPUs are saturated (longer inputs, bigger batches, or lost replicas). Scale out or shed load.", svc.Name, valueNumber, num(LatencyUp), num(ThroughputLow)),
	}, nil
}

// inputErrors: errors up while latency stays normal. The model serves
// fine; requests fail before or around it. Its text shows no value: the
// error ratio sums one rate per series of the SLI, and after a restart
// Prometheus 2 and 3 stretch each series' rate to the hour's start by
// different rules, so the two read the ratio apart in its third digit.
func (q quadrants) inputErrors(svc model.Service) (alertDef, *Skip) {
	if q.errors == nil || q.latency == nil {
		return alertDef{}, &Skip{InputErrors, "needs the errors and latency quadrants"}
	}
	return alertDef{
		expr: all(versus(svc, ErrorRatio, parser.GTR, ErrorsUp),
			q.overBudget(recorded(svc, ErrorRatio)),
			versus(svc, LatencyMean, parser.LTE, LatencyNormal)),
		summary:     "errors up, latency normal: input or dependency trouble",
		description: text("Over the last hour %s failed more than %s× as many requests as at the same hour yesterday, above its availability budget, while its latency stayed normal: look at request validation, preprocessing and the services it calls, not at the GPUs.", svc.Name, num(ErrorsUp)),
	}, nil
}

// leakSuspected: VRAM up while everything else is as it was yesterday.
// Its value, MiB summed over the service's GPUs, would read as "39.15k"
// through humanize, which helps no one; its text shows none.
func (q quadrants) leakSuspected(svc model.Service) (alertDef, *Skip) {
	if q.latency == nil || q.throughput == nil {
		return alertDef{}, &Skip{MemoryLeakSuspect, "needs the latency and throughput quadrants"}
	}
	terms := []pql.Expr{
		versus(svc, MemoryUsed, parser.GTR, MemoryUp),
		versus(svc, LatencyMean, parser.LTE, LatencyNormal),
		versus(svc, Throughput, parser.GTE, ThroughputLow),
		versus(svc, Throughput, parser.LTE, ThroughputHigh),
	}
	if q.errors != nil {
		terms = append(terms, pql.Paren(pql.Chain(parser.LOR, pql.Match{},
			versus(svc, ErrorRatio, parser.LTE, ErrorsUp), q.withinBudget(recorded(svc, ErrorRatio)))))
	}
	return alertDef{
		expr:        all(terms...),
		summary:     "GPU memory up, all else normal: a leak",
		description: text("Over the last hour %s held more than %s× the GPU memory it held at the same hour yesterday, with latency, throughput and errors as they were: memory is leaking (KV cache, tensors or the allocator's cache).", svc.Name, num(MemoryUp)),
	}, nil
}

// memoryLeak predicts a GPU's memory from its last hour and fires when it
// would run out within dcgm.LeakHorizon while traffic is flat, so growth that
// follows load is not taken for a leak. Its value is the memory the trend
// reaches at the horizon, a number no GPU has; its text shows the horizon.
func (q quadrants) memoryLeak(svc model.Service) (alertDef, *Skip) {
	if q.throughput == nil {
		return alertDef{}, &Skip{MemoryLeak, "needs the throughput quadrant to tell a leak from load"}
	}
	used, free := gpuSelector(svc, dcgm.FBUsed), gpuSelector(svc, dcgm.FBFree)
	now, before := q.throughput.expr(0), q.throughput.expr(DiagnosisWindow)
	capacity := pql.Max(pql.Add(used, free), perGPU(svc))
	trend := func(w time.Duration) pql.Expr {
		fills := pql.Max(pql.Call("predict_linear", pql.Range(used, w), pql.Num(dcgm.LeakHorizon.Seconds())), perGPU(svc))
		return pql.Chain(parser.GTR, pql.Match{}, fills, capacity).Lead()
	}
	flat := pql.Block(pql.Chain(parser.LAND, pql.Match{},
		pql.Le(now, pql.Mul(pql.Num(ThroughputHigh), before)), pql.Ge(now, pql.Mul(pql.Num(ThroughputLow), before))))
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.FBUsed,
		expr:        pql.Chain(parser.LAND, pql.On(), all(trend(dcgm.TrendWindow), trend(LeakShortWindow)), flat),
		summary:     fmt.Sprintf("GPU memory runs out within %s", genfile.Duration(dcgm.LeakHorizon)),
		title:       text("%s: memory runs out within %s", gpuName(svc), genfile.Duration(dcgm.LeakHorizon)),
		description: text("%s, serving %s, has grown its memory use over the last hour at a rate that fills it within %s, while traffic held steady: a leak. Restart the replica before it runs out, and find the leak.", gpuName(svc), svc.Name, genfile.Duration(dcgm.LeakHorizon)),
	}, nil
}
