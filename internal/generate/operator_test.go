package generate

import (
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"github.com/prometheus/prometheus/model/labels"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8slabels "k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"

	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/spec"
)

const operatorSpec = `package slo
services: chat: {
	runtime: "vllm", selector: {job: "chat", namespace: "ml"}
	slos: availability: objective: 99.5
	scrape: runtime: {monitor: "service", match_labels: app: "chat"}
}
`

// kubePrometheusStack is what kube-prometheus-stack's Prometheus selects
// PrometheusRules, ServiceMonitors and PodMonitors by when installed as
// release kube-prometheus-stack (its *SelectorNilUsesHelmValues: true).
var kubePrometheusStack = &metav1.LabelSelector{MatchLabels: map[string]string{"release": "kube-prometheus-stack"}}

// Under --target operator, the PrometheusRule, the runtime's
// ServiceMonitor and dcgm-exporter's PodMonitor decode strictly into the
// operator's types and are picked by kube-prometheus-stack's default
// selectors; the dashboard ConfigMap is Kubernetes', in the namespace
// given, with the sidecar's label. No scrape config is written.
func TestOperatorObjectsAreSelected(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "chat.cue", Data: []byte(operatorSpec)})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Target: target.Operator, Operator: target.Overrides{
		Labels:             []labels.Label{{Name: "release", Value: "kube-prometheus-stack"}},
		DashboardNamespace: "monitoring",
	}}
	files, err := build(o, res.Spec)
	if err != nil {
		t.Fatal(err)
	}
	selector, err := metav1.LabelSelectorAsSelector(kubePrometheusStack)
	if err != nil {
		t.Fatal(err)
	}
	objects := map[string]metav1.Object{
		"chat/prometheusrule.yaml":    &monitoringv1.PrometheusRule{},
		"chat/monitors.yaml":          &monitoringv1.ServiceMonitor{},
		"dcgm-exporter.monitors.yaml": &monitoringv1.PodMonitor{},
	}
	for path, obj := range objects {
		if err := yaml.UnmarshalStrict(files[path], obj); err != nil {
			t.Fatalf("%s: the operator rejects it: %v\n%s", path, err, files[path])
		}
		if !selector.Matches(k8slabels.Set(obj.GetLabels())) {
			t.Errorf("%s: labels %v, which kube-prometheus-stack's selector %v does not pick", path, obj.GetLabels(), selector)
		}
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(files["chat/dashboard-configmap.yaml"], &cm); err != nil {
		t.Fatalf("Kubernetes rejects the ConfigMap: %v", err)
	}
	if cm.Namespace != "monitoring" || cm.Labels["grafana_dashboard"] != "1" {
		t.Errorf("ConfigMap in %q, labels %v", cm.Namespace, cm.Labels)
	}
	for path := range files {
		if strings.HasSuffix(path, "scrape.yaml") || path == "prometheus.yml" {
			t.Errorf("%s: a scrape config under --target operator", path)
		}
	}
}

// Without labels, Stream writes nothing: the refusal comes first.
func TestOperatorRefusesUnlabelledRules(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "chat.cue", Data: []byte(operatorSpec)})
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	err = Options{Target: target.Operator}.Stream(res.Spec, func(string, []byte) error { emitted++; return nil })
	if err == nil || !strings.Contains(err.Error(), "--operator-label release=kube-prometheus-stack") || emitted > 0 {
		t.Errorf("%d files emitted, error %v", emitted, err)
	}
}
