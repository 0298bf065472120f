// Package loki writes Loki ruler rules for the services that ask for them
// (a spec's loki block): the alerts on the runtime's fatal log lines that
// gpu-rules.yaml raises from a Collector's counts, here in LogQL over the
// pods' log streams, for a Loki that holds the logs without a Collector
// in front. Each alert has the name, `for`, labels, annotations and
// runbook of its Prometheus version, and fires on the same lines.
package loki

import (
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// File is the rules' name: in a service's directory when it is built
// alone, at the output's root for a fleet, as otelcol.yaml.
const File = "loki-rules.yaml"

// RuleFile is a rules file in Loki's ruler format, which is Prometheus's
// with LogQL expressions (grafana/loki docs/sources/alert/_index.md).
type RuleFile struct {
	Groups []Group `yaml:"groups"`
}

// Group is a rule group: one per service.
type Group struct {
	Name  string `yaml:"name"`
	Rules []Rule `yaml:"rules"`
}

// Rule is an alerting rule.
type Rule struct {
	Alert       string            `yaml:"alert"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// GroupName is the rule group of a service's alerts on its log lines.
func GroupName(svc model.Service) string { return "slogen-" + svc.Name + "-logs" }

// Build writes the rules of the services that opted in (a spec's loki
// block), a group each, in the order given; nil when none did, or when no
// runtime of theirs writes a line slogen knows.
func Build(services []model.Service) ([]byte, error) {
	var f RuleFile
	for _, svc := range services {
		if g, ok := group(svc); ok {
			f.Groups = append(f.Groups, g)
		}
	}
	if len(f.Groups) == 0 {
		return nil, nil
	}
	return genfile.MarshalYAML(f)
}

// group is the service's rule group, and whether it has a rule.
func group(svc model.Service) (Group, bool) {
	if svc.Loki == nil {
		return Group{}, false
	}
	g := Group{Name: GroupName(svc)}
	for _, a := range gpualerts.LineAlerts(svc) {
		g.Rules = append(g.Rules, Rule{
			Alert:       a.Name,
			Expr:        Expr(*svc.Loki, a.Text),
			For:         forField(a),
			Labels:      identified(a.Labels, svc),
			Annotations: a.Annotations,
		})
	}
	return g, len(g.Rules) > 0
}

func forField(a gpualerts.LineAlert) string {
	if a.For == 0 {
		return ""
	}
	return genfile.Duration(a.For)
}

// identified adds service_name to the alert's labels: the Prometheus
// version takes it from the Collector's count (gpualerts.LogIdentity).
// With it, and the pod's labels renamed to the count's (Expr), an alert
// has the same labels whichever store fires it: Alertmanager's
// inhibitions between them hold, and the two stores' alerts on one line
// are one notification.
func identified(ls map[string]string, svc model.Service) map[string]string {
	out := make(map[string]string, len(ls)+1)
	for k, v := range ls {
		out[k] = v
	}
	out["service_name"] = svc.Name
	return out
}
