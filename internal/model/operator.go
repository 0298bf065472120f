package model

import (
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// Operator is how a prometheus-operator Prometheus and Grafana's dashboard
// sidecar find the objects --target operator writes. kube-prometheus-stack's
// Prometheus loads only the PrometheusRules, ServiceMonitors and
// PodMonitors labelled release: <its Helm release>.
type Operator struct {
	// Labels go on the PrometheusRules and the monitors, sorted by name.
	Labels []labels.Label
	// SelectAll says the Prometheus selects every PrometheusRule whatever
	// its labels, so that the objects may go without any.
	SelectAll bool
	// DashboardNamespace is where the dashboard ConfigMap goes; "" for
	// the PrometheusRules' namespace.
	DashboardNamespace string
}

// RuleLabels are the labels on the service's PrometheusRules: the
// operator labels, or else, as before they existed, scrape.monitor_labels.
func (s Service) RuleLabels() []labels.Label {
	if len(s.Operator.Labels) > 0 {
		return s.Operator.Labels
	}
	return s.Scrape.MonitorLabels
}

// MonitorLabels are the labels on the service's monitors: the operator
// labels and scrape.monitor_labels, sorted by name; an operator label
// wins a name both set (the spec refuses that; a flag overrides it).
func (s Service) MonitorLabels() []labels.Label {
	out := slices.Clone(s.Operator.Labels)
	for _, l := range s.Scrape.MonitorLabels {
		if !slices.ContainsFunc(out, func(o labels.Label) bool { return o.Name == l.Name }) {
			out = append(out, l)
		}
	}
	slices.SortFunc(out, func(a, b labels.Label) int { return strings.Compare(a.Name, b.Name) })
	return out
}
