package spec

import (
	"fmt"
	"maps"
	"regexp"
	"slices"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// k8sLabelValueRe is a Kubernetes label value: at most 63 letters, digits,
// dashes, underscores and dots, starting and ending with a letter or digit.
var k8sLabelValueRe = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9])?$`)

// KubernetesLabel checks that name=value can label a Kubernetes object.
func KubernetesLabel(name, value string) error {
	if !k8sLabelKeyRe.MatchString(name) {
		return fmt.Errorf("%q is not a Kubernetes label key", name)
	}
	if !k8sLabelValueRe.MatchString(value) {
		return fmt.Errorf("%q is not a Kubernetes label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit", value)
	}
	return nil
}

// KubernetesNamespace checks a namespace name, a DNS label.
func KubernetesNamespace(ns string) error {
	if !serviceNameRe.MatchString(ns) {
		return fmt.Errorf("%q is not a Kubernetes namespace: use 1 to 63 lower-case letters, digits and dashes, starting and ending with a letter or digit", ns)
	}
	return nil
}

// operator resolves how the operator target's objects are found. An
// operator label may not contradict scrape.monitor_labels: both go on
// the monitors.
func (r *resolver) operator(raw rawService) model.Operator {
	o := model.Operator{SelectAll: raw.Operator.SelectAll, DashboardNamespace: raw.Operator.DashboardNamespace}
	for _, k := range slices.Sorted(maps.Keys(raw.Operator.Labels)) {
		v := raw.Operator.Labels[k]
		if err := KubernetesLabel(k, v); err != nil {
			r.errorf(fields("operator", "labels", k), "%v", err)
			continue
		}
		if m, ok := raw.Scrape.MonitorLabels[k]; ok && m != v {
			r.errorf(fields("operator", "labels", k), "%q, but scrape.monitor_labels.%s is %q: both label the monitors; keep one", v, k, m)
		}
		o.Labels = append(o.Labels, labels.Label{Name: k, Value: v})
	}
	if ns := o.DashboardNamespace; ns != "" {
		if err := KubernetesNamespace(ns); err != nil {
			r.errorf(fields("operator", "dashboard_namespace"), "%v", err)
		}
	}
	return o
}
