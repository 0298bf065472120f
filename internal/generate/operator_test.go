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

// Under --target operator, a fleet's alerts about GPUs, written once at
// the top of the output, are a PrometheusRule too, picked by
// kube-prometheus-stack's selector, holding every group of the top
// gpu-rules.yaml; under mimir and thanos, their ruler's file.
func TestFleetPoolRulesAreDeployedByTheTarget(t *testing.T) {
	fleet := operatorSpec + `services: rank: {
	runtime: "triton", model: "r", selector: {job: "rank", namespace: "ml"}
	slos: availability: objective: 99.9
}
`
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(fleet)})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Target: target.Operator, Operator: target.Overrides{Labels: []labels.Label{{Name: "release", Value: "kube-prometheus-stack"}}}}
	files, err := build(o, res.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var rule monitoringv1.PrometheusRule
	if err := yaml.UnmarshalStrict(files["gpu-rules.prometheusrule.yaml"], &rule); err != nil {
		t.Fatalf("the operator rejects it: %v\n%s", err, files["gpu-rules.prometheusrule.yaml"])
	}
	selector, _ := metav1.LabelSelectorAsSelector(kubePrometheusStack)
	if !selector.Matches(k8slabels.Set(rule.Labels)) || rule.Namespace != "ml" {
		t.Errorf("in %q, labels %v", rule.Namespace, rule.Labels)
	}
	if len(rule.Spec.Groups) == 0 || !strings.Contains(string(files[GPURulesFile]), "name: "+rule.Spec.Groups[0].Name) {
		t.Errorf("groups %v, not gpu-rules.yaml's", rule.Spec.Groups)
	}
	for _, tc := range []struct {
		t    target.Name
		file string
	}{{target.Mimir, "gpu-rules." + target.MimirFile}, {target.Thanos, "gpu-rules." + target.ThanosFile}} {
		files, err := build(Options{Target: tc.t}, res.Spec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(files[tc.file]), "slogen-gpus-dcgm-exporter") {
			t.Errorf("--target %s: %s holds no pool group:\n%s", tc.t, tc.file, files[tc.file])
		}
	}
}
