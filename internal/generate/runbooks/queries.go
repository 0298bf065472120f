package runbooks

import (
	"slices"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// queries are what a section asks the reader to look at, beside the
// alert's own expression.
func queries(svc model.Service) Queries {
	m := svc.Metrics
	gpu := func(field string) string { return pql.Print(model.Metric(field).With(svc.DCGM.Matchers...)) }
	perReplica := func(s model.Selector) string { return ifHas(svc, s, byReplica(pql.Max)) }
	q := Queries{
		Up:          pql.Print(model.Metric("up").With(upScope(svc)...)),
		DCGMUp:      pql.Print(model.Metric("up").With(pql.Eq("job", svc.DCGM.Job))),
		GPUMemory:   pql.Print(rules.ServiceSeries(gpualerts.MemoryUsedRatio, svc)),
		MemoryUsed:  pql.Print(rules.ServiceSeries(gpualerts.MemoryUsed, svc)),
		FBUsed:      gpu(dcgm.FBUsed),
		Temperature: gpu(dcgm.GPUTemp),
		Power:       gpu(dcgm.PowerUsage),
		Queue:       perReplica(m.Waiting),
		KVCache:     perReplica(m.KVCache),
		Preemptions: preemptions(svc),
		PrefixCache: prefixCache(svc),
		Allocated:   ifHas(svc, m.GPUMemory, byReplica(pql.Sum)),
		Reserved:    ifHas(svc, m.GPUMemoryReserved, byReplica(pql.Sum)),
		OOM:         ifHas(svc, m.OOM, func(v pql.Expr) pql.Expr { return pql.Sum(pql.Increase(v, 24*time.Hour)) }),
		BudgetLeft:  pql.Print(rules.ServiceSeries(rules.BudgetRemainingMetric, svc)),
	}
	q.Groups = groups(svc)
	if svc.Traffic != nil {
		q.Requests = pql.Print(svc.Traffic.Requests)
	}
	q.Failures = ifHas(svc, m.Failures, func(v pql.Expr) pql.Expr { return pql.Sum(pql.Rate(v, readWindow), failureClasses(m)...) })
	return q
}

// readWindow is the window the queries read rates over: short, to show
// what happens now.
const readWindow = 5 * time.Minute

// failureClasses group failures by the runtime's failure class, where it
// has one.
func failureClasses(m model.Metrics) []pql.Agg {
	if m.FailureClass == "" {
		return nil
	}
	return []pql.Agg{pql.By(m.FailureClass)}
}

// byReplica aggregates per replica: by instance and pod.
func byReplica(agg func(pql.Expr, ...pql.Agg) pql.Expr) func(pql.Expr) pql.Expr {
	return func(v pql.Expr) pql.Expr { return agg(v, pql.By("instance", "pod")) }
}

// ifHas is the query of the runtime's metric, scoped to the service as
// the serving alerts scope it, or nothing when the runtime lacks it.
func ifHas(svc model.Service, s model.Selector, query func(pql.Expr) pql.Expr) string {
	if s.IsZero() {
		return ""
	}
	return pql.Print(query(s.With(runtimeScope(svc, s.Name)...)))
}

// runtimeScope is the spec's selector and the served model as the
// runtime writes it on metric, where the runtime labels its metrics with
// it: what gpualerts adds to the runtime's metrics.
func runtimeScope(svc model.Service, metric string) []*labels.Matcher {
	ms := selectorScope(svc)
	if v := svc.Metrics.ModelCase.Value(metric, svc.Model); svc.Metrics.ModelLabel != "" && v != "" {
		ms = append(ms, pql.Eq(svc.Metrics.ModelLabel, v))
	}
	return ms
}

// upScope selects the runtime's targets: by the spec's selector, or by
// the scrape job slogen writes when the spec has none.
func upScope(svc model.Service) []*labels.Matcher {
	if ms := selectorScope(svc); len(ms) > 0 {
		return ms
	}
	return []*labels.Matcher{pql.Eq("job", svc.Scrape.Runtime.Job)}
}

func selectorScope(svc model.Service) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range svc.Selector {
		ms = append(ms, pql.Eq(l.Name, l.Value))
	}
	return ms
}

// preemptions is the rate of preempted requests from a counter (vLLM's
// vllm:num_preemptions_total), or the count from a gauge (SGLang's
// sglang:num_retracted_reqs).
func preemptions(svc model.Service) string {
	p := svc.Metrics.Preemptions
	if strings.HasSuffix(p.Name, "_total") {
		return ifHas(svc, p, func(v pql.Expr) pql.Expr { return pql.Sum(pql.Rate(v, readWindow)) })
	}
	return ifHas(svc, p, func(v pql.Expr) pql.Expr { return pql.Sum(v) })
}

// prefixCache is the hit ratio per replica over 5m, from the token
// counters (vLLM) or the runtime's own ratio (SGLang).
func prefixCache(svc model.Service) string {
	m := svc.Metrics
	if m.PrefixCacheHits.IsZero() || m.PrefixCacheQueries.IsZero() {
		return ifHas(svc, m.PrefixCacheHitRatio, byReplica(pql.Max))
	}
	rate := func(s model.Selector) pql.Expr {
		return pql.Sum(pql.Rate(s.With(runtimeScope(svc, s.Name)...), readWindow), pql.By("instance", "pod"))
	}
	return pql.Print(pql.Chain(parser.DIV, pql.Match{}, rate(m.PrefixCacheHits), rate(m.PrefixCacheQueries)))
}

// groups counts, per split SLO and value of its labels, the series
// recorded for it.
func groups(svc model.Service) string {
	var by []string
	for _, slo := range svc.SLOs {
		for _, l := range slo.GroupBy {
			if !slices.Contains(by, l) {
				by = append(by, l)
			}
		}
	}
	if len(by) == 0 {
		return ""
	}
	all := &parser.VectorSelector{LabelMatchers: []*labels.Matcher{
		pql.Re(labels.MetricName, "slogen:.+"), pql.Eq("service", svc.Name),
	}}
	return pql.Print(pql.Call("sort_desc", pql.Count(all, pql.By(append([]string{"slo"}, by...)...))))
}
