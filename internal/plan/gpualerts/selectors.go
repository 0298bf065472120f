package gpualerts

import (
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// gpuSelector selects a DCGM field on the service's GPUs, by its pod or
// host mapping.
func gpuSelector(svc model.Service, field string) *parser.VectorSelector {
	return pql.Metric(field, svc.DCGM.Matchers...)
}

// gpuIdentity names one GPU, or one MIG instance of it, after
// aggregation; the exporter's other labels (driver version, PCI bus)
// would only clutter the alert.
func gpuIdentity(svc model.Service) []string {
	if svc.DCGM.Mapping == model.MappingHost {
		return []string{"Hostname", "gpu", "GPU_I_ID"}
	}
	return []string{svc.DCGM.NamespaceLabel(), svc.DCGM.PodLabel(), "gpu", "GPU_I_ID"}
}

// perGPU aggregates by gpuIdentity.
func perGPU(svc model.Service) pql.Agg { return pql.By(gpuIdentity(svc)...) }

// replicaIdentity names one runtime replica: its scrape target, and its
// pod where pods are discovered.
var replicaIdentity = []string{"instance", "pod"}

// runtimeSelector selects one of the runtime's metrics for the service:
// the metric's own matchers (a custom app's oom may be
// inference_errors_total{type="oom"}), the spec's selector, and the served
// model on runtimes that label their metrics with it.
func runtimeSelector(svc model.Service, m model.Selector) *parser.VectorSelector {
	return m.With(runtimeScope(svc, m.Name)...)
}

// runtimeScope is the spec's selector and, where the runtime labels
// metric with it, the served model as the runtime writes it there.
func runtimeScope(svc model.Service, metric string) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range svc.Selector {
		ms = append(ms, pql.Eq(l.Name, l.Value))
	}
	if v := svc.Metrics.ModelCase.Value(metric, svc.Model); svc.Metrics.ModelLabel != "" && v != "" {
		ms = append(ms, pql.Eq(svc.Metrics.ModelLabel, v))
	}
	return ms
}

// recorded selects a series this package records for the service; for
// rules.SharedName, every service's.
func recorded(svc model.Service, name string) *parser.VectorSelector {
	return rules.ServiceSeries(name, svc)
}
