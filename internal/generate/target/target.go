// Package target wraps a service's rule groups for where they run: as
// prometheus-operator PrometheusRules, as a Mimir (or Cortex) ruler
// namespace, or as Thanos ruler groups. The groups are the same rules as
// rules.yaml and gpu-rules.yaml, which every target still writes for the
// promtool tests that read them.
package target

import (
	"fmt"
	"maps"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// Name is a deployment target.
type Name string

// The targets --target takes.
const (
	Prometheus Name = "prometheus" // rule files for rule_files: nothing more
	Operator   Name = "operator"
	Mimir      Name = "mimir"
	Thanos     Name = "thanos"
)

// Names lists the targets, the default first.
var Names = []Name{Prometheus, Operator, Mimir, Thanos}

// Groups are a service's rule groups by where they run: Local on every
// Prometheus that scrapes it, Global on the global ruler of a service
// that spans clusters (none otherwise).
type Groups struct {
	Local, Global []rules.Group
}

// Files are a service's rule groups wrapped for the target, by path under
// the service's directory. namespace, when set, is where the
// PrometheusRules go, rather than the selector's namespace; a global
// ruler's PrometheusRule (for prometheus-operator's ThanosRuler) needs it.
// Mimir's and Thanos's rulers run the global groups of a service that
// spans clusters, whose Prometheus servers read the local rule files.
func Files(t Name, svc model.Service, g Groups, namespace string) (map[string][]byte, error) {
	ruler := g.Local
	if g.Global != nil {
		ruler = g.Global
	}
	switch t {
	case Prometheus:
		return nil, nil
	case Operator:
		return operatorFiles(svc, g, namespace)
	case Mimir:
		return single(MimirFile, MimirNamespace{Namespace: svc.Name, Groups: ruler})
	case Thanos:
		return single(ThanosFile, ThanosRules{Groups: thanosGroups(ruler)})
	}
	return nil, fmt.Errorf("unknown target %q", t)
}

// operatorFiles are the PrometheusRules of the service's Prometheus and,
// for a service that spans clusters, of its global ruler.
func operatorFiles(svc model.Service, g Groups, namespace string) (map[string][]byte, error) {
	out, err := prometheusRules(svc, g.Local, RuleNamespace(svc, namespace), localRule, MaxPrometheusRule)
	if err != nil || g.Global == nil {
		return out, err
	}
	if namespace == "" {
		return nil, fmt.Errorf("service %s spans clusters: its global ruler's PrometheusRule needs a namespace, which no selector tells; give --namespace", svc.Name)
	}
	global, err := prometheusRules(svc, g.Global, namespace, globalRule, MaxPrometheusRule)
	maps.Copy(out, global)
	return out, err
}

func single(name string, v any) (map[string][]byte, error) {
	data, err := genfile.MarshalYAML(v)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{name: data}, nil
}

// Mimir and Thanos files.
const (
	MimirFile  = "mimir-rules.yaml"
	ThanosFile = "thanos-rules.yaml"
)

// MimirNamespace is a rule file as mimirtool rules load and sync read it:
// the ruler namespace, the service's name, and its groups. Cortex's
// ruler reads the same.
type MimirNamespace struct {
	Namespace string        `yaml:"namespace"`
	Groups    []rules.Group `yaml:"groups"`
}

// ThanosRules is a Thanos ruler file.
type ThanosRules struct {
	Groups []ThanosGroup `yaml:"groups"`
}

// ThanosGroup is a rule group with Thanos's partial_response_strategy:
// abort, so that a query half the stores answered fails the evaluation
// instead of passing for a recovery.
type ThanosGroup struct {
	Name                    string       `yaml:"name"`
	Interval                string       `yaml:"interval,omitempty"`
	PartialResponseStrategy string       `yaml:"partial_response_strategy"`
	Rules                   []rules.Rule `yaml:"rules"`
}

func thanosGroups(groups []rules.Group) []ThanosGroup {
	out := make([]ThanosGroup, len(groups))
	for i, g := range groups {
		out[i] = ThanosGroup{Name: g.Name, Interval: g.Interval, PartialResponseStrategy: "abort", Rules: g.Rules}
	}
	return out
}

// namePath is the path of the n-th of count files named base.yaml: the
// base name alone when there is one.
func namePath(base string, n, count int) string {
	if count == 1 {
		return base + ".yaml"
	}
	return fmt.Sprintf("%s-%d.yaml", base, n)
}
