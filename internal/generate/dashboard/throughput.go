package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// tokenRate is a count unit, so Grafana scales it (12.3K tok/s).
const tokenRate = "count:tok/s"

// throughputPanels are the throughput quadrant: work done, work in
// flight and queued, the engine's health and how full the batches are.
func throughputPanels(s scope) builders {
	return compact(throughput(s), concurrency(s), readyEndpoints(s), engineHealth(s), batchUtilisation(s))
}

// readyEndpoints is a gateway's count of the engines in its pool that can
// take requests: a pool shrinking to none is an outage of every engine
// at once, whatever each engine's own dashboard says.
func readyEndpoints(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics.ReadyEndpoints
	if m.IsZero() {
		return nil
	}
	return timeseriesPanel("Pool: ready endpoints",
		"Engines of the pool ready to take requests, as the gateway's endpoint picker counts them ("+m.Name+"), per pool; the most any of its replicas reports.",
		"count:endpoints", plot(pql.Max(s.app(m), pql.By("name")), "{{name}}")).Min(0)
}

// throughput plots finished requests per second and tokens per second,
// service-wide; tokens go on a right-hand axis.
func throughput(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics.Serving
	var qs []query
	var tokenRefs []string
	if !m.Completed.IsZero() {
		qs = append(qs, plot(sumBy(rate(s.app(m.Completed))), "requests/s"))
	}
	for _, t := range []struct {
		metric model.Selector
		legend string
	}{{m.PromptTokens, "prompt tokens/s"}, {m.GenerationTokens, "generation tokens/s"}} {
		if !t.metric.IsZero() {
			tokenRefs = append(tokenRefs, refID(len(qs)))
			qs = append(qs, plot(sumBy(rate(s.app(t.metric))), t.legend))
		}
	}
	if len(qs) == 0 {
		return sloThroughput(s.svc)
	}
	unit := units.RequestsPerSecond
	if m.Completed.IsZero() {
		unit = tokenRate
	}
	p := timeseriesPanel(throughputTitle(!m.Completed.IsZero(), len(tokenRefs) > 0),
		"Finished requests per second (left) and prompt and generated tokens per second (right), across the service. "+
			"Prompt tokens rising faster than requests are longer prompts.",
		unit, qs...).AxisSoftMin(0)
	if !m.Completed.IsZero() {
		for _, ref := range tokenRefs {
			p.OverrideByQuery(ref, rightAxis(tokenRate))
		}
	}
	return p
}

// sloThroughput is the request rate the availability SLO counts, for an
// app that exports no other throughput: what the diagnosis reads as its
// throughput too, and across clusters what its alerts read, an HA pair
// counted once. nil without an availability SLO.
func sloThroughput(svc model.Service) cog.Builder[dashboard.Panel] {
	slo, ok := svc.Availability()
	if !ok {
		return nil
	}
	return timeseriesPanel(throughputTitle(true, false),
		"Requests per second as the availability SLO "+slo.Name+" counts them (its 5m recording): the app exports no other request counter.",
		units.RequestsPerSecond,
		plot(sumBy(rules.RequestRate(svc, slo, model.BaseWindow, groupNarrowing(slo)...)), "requests/s"),
	).AxisSoftMin(0)
}

func throughputTitle(requests, tokens bool) string {
	switch {
	case requests && tokens:
		return "Throughput: requests/s and tokens/s"
	case requests:
		return "Throughput: requests/s"
	}
	return "Throughput: tokens/s"
}

// concurrency plots requests running and waiting per process, with the
// queue-depth alert threshold.
func concurrency(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics.Serving
	var qs []query
	if !m.Running.IsZero() {
		qs = append(qs, plot(sumBy(s.app(m.Running), s.target()), s.targetLegend("running")))
	}
	if !m.Waiting.IsZero() {
		qs = append(qs, plot(sumBy(s.app(m.Waiting), s.target()), s.targetLegend("waiting")))
	}
	if len(qs) == 0 {
		return nil
	}
	p := timeseriesPanel(concurrencyTitle(!m.Running.IsZero(), !m.Waiting.IsZero()),
		"Requests in the running batch (concurrency) and in the queue, per process. The dashed line is the queue-depth alert threshold.",
		"count:req", qs...).AxisSoftMin(0)
	return withLines(p, "green", step{s.svc.Thresholds.QueueDepth, "red"})
}

func concurrencyTitle(running, waiting bool) string {
	switch {
	case running && waiting:
		return "Running and waiting requests"
	case running:
		return "Running requests"
	}
	return "Waiting requests"
}

// batchUtilisation is the share of the batch token budget in use, where
// the runtime exports both (TGI).
func batchUtilisation(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics.Serving
	if m.BatchSize.IsZero() || m.BatchMax.IsZero() {
		return nil
	}
	t := s.target()
	return timeseriesPanel("Batch utilisation",
		"Tokens in the current batch against the most a batch may hold, per process.",
		units.PercentUnit,
		plot(pql.Div(sumBy(s.app(m.BatchSize), t), sumBy(s.app(m.BatchMax), t)), s.targetLegend("")),
	).Min(0).Max(1)
}
