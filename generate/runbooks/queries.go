package runbooks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// queries are what a section asks the reader to look at, beside the
// alert's own expression.
func queries(svc model.Service) Queries {
	m := svc.Metrics
	gpu := func(field string) string { return model.Metric(field).With(svc.DCGM.Matchers...).String() }
	perReplica := func(s model.Selector) string { return ifHas(s, "max by (instance, pod) (%s)", svc) }
	q := Queries{
		Up:          model.Metric("up").With(upScope(svc)...).String(),
		DCGMUp:      model.Metric("up").With(eq("job", svc.DCGM.Job)).String(),
		GPUMemory:   rules.ServiceSelector(gpualerts.MemoryUsedRatio, svc),
		MemoryUsed:  rules.ServiceSelector(gpualerts.MemoryUsed, svc),
		FBUsed:      gpu(dcgm.FBUsed),
		Temperature: gpu(dcgm.GPUTemp),
		Power:       gpu(dcgm.PowerUsage),
		Queue:       perReplica(m.Waiting),
		KVCache:     perReplica(m.KVCache),
		Preemptions: preemptions(svc),
		PrefixCache: prefixCache(svc),
		Allocated:   ifHas(m.GPUMemory, "sum by (instance, pod) (%s)", svc),
		Reserved:    ifHas(m.GPUMemoryReserved, "sum by (instance, pod) (%s)", svc),
		OOM:         ifHas(m.OOM, "sum(increase(%s[1d]))", svc),
		BudgetLeft:  rules.ServiceSelector(rules.BudgetRemainingMetric, svc),
	}
	q.Groups = groups(svc)
	if svc.Traffic != nil {
		q.Requests = svc.Traffic.Requests.String()
	}
	if m.FailureClass != "" {
		q.Failures = ifHas(m.Failures, "sum by ("+m.FailureClass+") (rate(%s[5m]))", svc)
	} else {
		q.Failures = ifHas(m.Failures, "sum(rate(%s[5m]))", svc)
	}
	return q
}

// ifHas prints format with the runtime's metric, scoped to the service
// as the serving alerts scope it, or nothing when the runtime lacks it.
func ifHas(s model.Selector, format string, svc model.Service) string {
	if s.IsZero() {
		return ""
	}
	return fmt.Sprintf(format, s.With(runtimeScope(svc)...))
}

// runtimeScope is the spec's selector and the served model, where the
// runtime labels its metrics with it: what gpualerts adds to the
// runtime's metrics.
func runtimeScope(svc model.Service) []*labels.Matcher {
	ms := selectorScope(svc)
	if svc.Metrics.ModelLabel != "" && svc.Model != "" {
		ms = append(ms, eq(svc.Metrics.ModelLabel, svc.Model))
	}
	return ms
}

// upScope selects the runtime's targets: by the spec's selector, or by
// the scrape job slogen writes when the spec has none.
func upScope(svc model.Service) []*labels.Matcher {
	if ms := selectorScope(svc); len(ms) > 0 {
		return ms
	}
	return []*labels.Matcher{eq("job", svc.Scrape.Runtime.Job)}
}

func selectorScope(svc model.Service) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range svc.Selector {
		ms = append(ms, eq(l.Name, l.Value))
	}
	return ms
}

// eq matches a label value exactly; the PromQL printer escapes it.
func eq(name, value string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchEqual, name, value)
}

// preemptions is the rate of preempted requests from a counter (vLLM's
// vllm:num_preemptions_total), or the count from a gauge (SGLang's
// sglang:num_retracted_reqs).
func preemptions(svc model.Service) string {
	if p := svc.Metrics.Preemptions; strings.HasSuffix(p.Name, "_total") {
		return ifHas(p, "sum(rate(%s[5m]))", svc)
	}
	return ifHas(svc.Metrics.Preemptions, "sum(%s)", svc)
}

// prefixCache is the hit ratio per replica over 5m, from the token
// counters (vLLM) or the runtime's own ratio (SGLang).
func prefixCache(svc model.Service) string {
	m := svc.Metrics
	if m.PrefixCacheHits.IsZero() || m.PrefixCacheQueries.IsZero() {
		return ifHas(m.PrefixCacheHitRatio, "max by (instance, pod) (%s)", svc)
	}
	return ifHas(m.PrefixCacheHits, "sum by (instance, pod) (rate(%s[5m]))", svc) + "\n/\n" +
		ifHas(m.PrefixCacheQueries, "sum by (instance, pod) (rate(%s[5m]))", svc)
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
		labels.MustNewMatcher(labels.MatchRegexp, labels.MetricName, "slogen:.+"), eq("service", svc.Name),
	}}
	return fmt.Sprintf("sort_desc(count by (slo, %s) (%s))", strings.Join(by, ", "), all)
}
