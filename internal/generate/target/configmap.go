package target

import (
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// DashboardConfigMapFile holds the dashboard for the operator target.
const DashboardConfigMapFile = "dashboard-configmap.yaml"

// DefaultDashboardLabel is the label the Grafana Helm chart's sidecar
// looks for, by default, on the ConfigMaps it loads dashboards from.
const DefaultDashboardLabel = "grafana_dashboard=1"

// ConfigMap is a Kubernetes v1 ConfigMap, in the fields slogen sets; tests
// decode it strictly into Kubernetes' own type.
type ConfigMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   Metadata          `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

// DashboardConfigMap is the dashboard as a ConfigMap that Grafana's
// dashboard sidecar loads: in DashboardNamespace, labelled name=value,
// the dashboard under <service>.json. It replaces the file provider,
// which a sidecar makes needless.
func DashboardConfigMap(svc model.Service, dashboardJSON []byte, namespace, name, value string) ([]byte, error) {
	return genfile.MarshalYAML(ConfigMap{
		APIVersion: "v1",
		Kind:       "ConfigMap",
		Metadata:   Metadata{Name: "slogen-" + svc.Name + "-dashboard", Namespace: DashboardNamespace(svc, namespace), Labels: map[string]string{name: value}},
		Data:       map[string]string{svc.Name + ".json": string(dashboardJSON)},
	})
}

// RuleNamespace is where the service's PrometheusRule goes: namespace,
// the --namespace flag, or else the selector's namespace.
func RuleNamespace(svc model.Service, namespace string) string {
	for _, l := range svc.Selector {
		if l.Name == "namespace" && namespace == "" {
			return l.Value
		}
	}
	return namespace
}

// DashboardNamespace is where the dashboard ConfigMap goes: the spec's
// (or --dashboard-namespace's) operator.dashboard_namespace, or else the
// PrometheusRules' namespace. kube-prometheus-stack's Grafana sidecar
// searches every namespace; the Grafana chart's alone, only its own.
func DashboardNamespace(svc model.Service, namespace string) string {
	if ns := svc.Operator.DashboardNamespace; ns != "" {
		return ns
	}
	return RuleNamespace(svc, namespace)
}
