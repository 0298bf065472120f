package overview

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// servingGauge is one of the runtime's gauges that a serving alert reads
// per replica, drawn per service at its fullest replica.
type servingGauge struct {
	title, unit, alert, about string
	metric                    func(model.Metrics) model.Selector
}

var servingGauges = []servingGauge{
	{"KV cache in use, fullest replica", units.PercentUnit, gpualerts.KVCacheHigh,
		"The share of the KV cache in use on each service's fullest replica: near 100% new requests wait or preempt running ones.",
		func(m model.Metrics) model.Selector { return m.KVCache }},
	{"Requests waiting, longest queue", "short", gpualerts.QueueBacklog,
		"The requests waiting on each service's replica with the longest queue: a queue that grows means it is at capacity.",
		func(m model.Metrics) model.Selector { return m.Waiting }},
}

// servingSource is where services of one runtime and selector shape read
// a serving gauge: the runtime's metric, and the selector's label names,
// which the metric's series and the services' info both carry, so that
// the series tell whose they are.
type servingSource struct {
	runtime string
	metric  model.Selector
	by      []string
}

// servingSources lists, per gauge, where the services read it, one source
// per runtime, metric and selector label names; none for a selector
// without labels, which cannot tell its series apart from another's.
func servingSources(svcs []model.Service) [][]servingSource {
	out := make([][]servingSource, len(servingGauges))
	for i, g := range servingGauges {
		seen := map[string]servingSource{}
		for _, svc := range svcs {
			m := g.metric(svc.Metrics)
			if m.IsZero() || len(svc.Selector) == 0 {
				continue
			}
			src := servingSource{runtime: svc.Runtime, metric: m}
			for _, l := range svc.Selector {
				src.by = append(src.by, l.Name)
			}
			seen[src.runtime+"\x00"+m.String()+"\x00"+strings.Join(src.by, ",")] = src
		}
		for _, k := range slices.Sorted(maps.Keys(seen)) {
			out[i] = append(out[i], seen[k])
		}
	}
	return out
}

// read is the gauge at each service's fullest replica: the runtime's
// series, each given the service whose selector values it carries.
func (s servingSource) read() pql.Expr {
	owners := pql.Group(pql.Metric(ServiceInfo, pql.Eq("runtime", s.runtime)), pql.By(append([]string{"service"}, s.by...)...))
	return pql.Max(pql.Mul(s.metric.With(), owners, pql.On(s.by...).GroupLeft("service")), pql.By("service"))
}

// servingPanels draw each serving gauge some service has, for the worst
// services.
func (f fleet) servingPanels() []cog.Builder[dashboard.Panel] {
	var ps []cog.Builder[dashboard.Panel]
	for i, g := range servingGauges {
		if len(f.serving[i]) == 0 {
			continue
		}
		var terms []pql.Expr
		for _, src := range f.serving[i] {
			terms = append(terms, src.read())
		}
		about := fmt.Sprintf("%s As %s reads it, per service.", g.about, g.alert)
		ps = append(ps, timeseriesPanel(g.title, about, g.unit, ofWorst(fold(pql.Or, terms))))
	}
	return ps
}
