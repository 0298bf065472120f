package gpualerts

import (
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// gpuSelector selects a DCGM field on the service's GPUs, by its pod or
// host mapping.
func gpuSelector(svc model.Service, field string) string {
	return selector(field, svc.DCGM.Matchers)
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

// replicaIdentity names one runtime replica: its scrape target, and its
// pod where pods are discovered.
var replicaIdentity = []string{"instance", "pod"}

// runtimeSelector selects one of the runtime's metrics for the service:
// the metric's own matchers (a custom app's oom may be
// inference_errors_total{type="oom"}), the spec's selector, and the served
// model on runtimes that label their metrics with it.
func runtimeSelector(svc model.Service, m model.Selector) string {
	return m.With(runtimeScope(svc)...).String()
}

func runtimeScope(svc model.Service) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range svc.Selector {
		ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, l.Name, l.Value))
	}
	if svc.Metrics.ModelLabel != "" && svc.Model != "" {
		ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, svc.Metrics.ModelLabel, svc.Model))
	}
	return ms
}

// selector prints a vector selector; the printer quotes and escapes.
func selector(name string, ms []*labels.Matcher) string {
	return model.Metric(name).With(ms...).String()
}

// recorded selects a series this package records for the service.
func recorded(svc model.Service, name string) string {
	return selector(name, []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "service", svc.Name)})
}

func by(ls []string) string { return "by (" + strings.Join(ls, ", ") + ")" }
