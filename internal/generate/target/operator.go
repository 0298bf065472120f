package target

import (
	"fmt"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// MaxPrometheusRule is the size above which prometheus-operator refuses a
// PrometheusRule: it puts rule files in a ConfigMap, which holds 1 MiB,
// and stops at half of that.
const MaxPrometheusRule = 512 << 10

// PrometheusRule is prometheus-operator's monitoring.coreos.com/v1 object,
// in the subset of fields slogen sets. Like the monitors, it is written
// from slogen's own types; tests decode it strictly into the operator's.
type PrometheusRule struct {
	APIVersion string             `yaml:"apiVersion"`
	Kind       string             `yaml:"kind"`
	Metadata   Metadata           `yaml:"metadata"`
	Spec       PrometheusRuleSpec `yaml:"spec"`
}

// Metadata names the object; its labels are what the operator's
// ruleSelector picks.
type Metadata struct {
	Name      string            `yaml:"name"`
	Namespace string            `yaml:"namespace,omitempty"`
	Labels    map[string]string `yaml:"labels,omitempty"`
}

// PrometheusRuleSpec holds the rule groups.
type PrometheusRuleSpec struct {
	Groups []rules.Group `yaml:"groups"`
}

// ruleObject names a service's PrometheusRules of one kind: the file and
// the object name's suffix. global ones are labelled for the global
// ruler's selector, not with the rule labels the clusters' Prometheus
// servers select: neither may run the other's groups.
type ruleObject struct {
	file, suffix string
	global       bool
}

// The PrometheusRules of a service: its Prometheus's, and its global
// ruler's when it spans clusters.
var (
	localRule  = ruleObject{file: "prometheusrule"}
	globalRule = ruleObject{file: "prometheusrule-global", suffix: "-global", global: true}
)

// GlobalRulerLabel labels a global ruler's PrometheusRules (value
// "global"), for prometheus-operator's ThanosRuler to select with its
// ruleSelector.
const GlobalRulerLabel = "slogen.dev/ruler"

// prometheusRules wraps the groups in PrometheusRules in namespace, of at
// most max bytes each, splitting by group in order: prometheusrule.yaml,
// or prometheusrule-1.yaml, -2… when one would be too big.
func prometheusRules(svc model.Service, groups []rules.Group, namespace string, obj ruleObject, max int) (map[string][]byte, error) {
	labels := map[string]string{}
	for _, l := range svc.RuleLabels() {
		labels[l.Name] = l.Value
	}
	if obj.global {
		labels = map[string]string{GlobalRulerLabel: "global"}
	}
	var parts [][]rules.Group
	for _, g := range groups {
		next := len(parts) - 1
		if next >= 0 {
			data, err := marshalRule(svc, namespace, labels, append(parts[next], g), obj, 0)
			if err != nil {
				return nil, err
			}
			if len(data) <= max {
				parts[next] = append(parts[next], g)
				continue
			}
		}
		parts = append(parts, []rules.Group{g})
	}
	out := map[string][]byte{}
	for i, p := range parts {
		n := 0
		if len(parts) > 1 {
			n = i + 1
		}
		data, err := marshalRule(svc, namespace, labels, p, obj, n)
		if err != nil {
			return nil, err
		}
		if len(data) > max {
			return nil, fmt.Errorf("rule group %s alone makes a PrometheusRule of %d bytes, above the operator's %d", p[0].Name, len(data), max)
		}
		out[namePath(obj.file, i+1, len(parts))] = data
	}
	return out, nil
}

// marshalRule writes the n-th PrometheusRule of the service, 0 when it is
// the only one.
func marshalRule(svc model.Service, namespace string, labels map[string]string, groups []rules.Group, obj ruleObject, n int) ([]byte, error) {
	name := "slogen-" + svc.Name + obj.suffix
	if n > 0 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	return genfile.MarshalYAML(PrometheusRule{
		APIVersion: "monitoring.coreos.com/v1",
		Kind:       "PrometheusRule",
		Metadata:   Metadata{Name: name, Namespace: namespace, Labels: labels},
		Spec:       PrometheusRuleSpec{Groups: groups},
	})
}
