package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// variables are the datasource, the trace data source where the
// service's Collector computes span metrics, on a kind's dashboard the
// service and what follows from it, then the runtime process filter, the
// values of split SLOs' labels, then the GPU filters (host, outside
// Kubernetes; GPU index).
func variables(s scope) []cog.Builder[dashboard.VariableModel] {
	vs := []cog.Builder[dashboard.VariableModel]{
		dashboard.NewDatasourceVariableBuilder("datasource").Label("Data source").Type("prometheus"),
	}
	vs = append(vs, tracesVariable(s)...)
	if s.kind() {
		vs = append(vs, kindVariables(s)...)
	}
	vs = append(vs, filter(s.target(), labelTitle(s.target()), s.appBase(s.anyAppMetric()), s.target(), dashboard.VariableSortNaturalAsc))
	switch {
	case s.svc.DCGM.Mapping == model.MappingHost:
		vs = append(vs, filter("host", "Host", s.gpuBase(dcgm.FBUsed), s.gpuOwner(), dashboard.VariableSortNaturalAsc))
	case s.svc.Metrics.Gateway:
		vs = append(vs, filter(enginePodVar, "Engine pod", s.gpuBase(dcgm.FBUsed), s.gpuOwner(), dashboard.VariableSortNaturalAsc))
	}
	vs = append(vs, groupVariables(s.svc)...)
	gpus := s.gpuBase(dcgm.FBUsed)
	gpus.LabelMatchers = append(gpus.LabelMatchers, re(s.gpuOwner(), "$"+s.gpuOwnerVar()))
	return append(vs, filter("gpu", "GPU", gpus, "gpu", dashboard.VariableSortNumericalAsc))
}

// filter is a multi-value variable listing a label's values, All by
// default.
func filter(name, title string, sel *parser.VectorSelector, label string, sort dashboard.VariableSort) cog.Builder[dashboard.VariableModel] {
	return grafana.Filter(name, title, pql.LabelValues(sel, label), sort)
}

func labelTitle(label string) string {
	if label == "pod" {
		return "Pod"
	}
	return "Instance"
}

// anyAppMetric is a metric every process of the runtime exports, to list
// the processes; up when the profile names none.
func (s scope) anyAppMetric() model.Selector {
	m := s.svc.Metrics
	for _, sel := range []model.Selector{m.Running, m.Waiting, m.Completed, m.KVCache, m.PromptTokens, m.Failures} {
		if !sel.IsZero() {
			return sel
		}
	}
	for _, h := range []model.Histogram{m.Latency, m.TTFT, m.ITL, m.TPOT, m.Queue} {
		if h.Name != "" && h.Native {
			return model.Metric(h.Name)
		}
		if h.Name != "" {
			return model.Metric(h.Name + "_count")
		}
	}
	return model.Metric("up")
}
