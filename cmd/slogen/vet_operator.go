package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/scrape"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/model"
)

// vetOperator explains, for --target operator, how the service's objects
// are found: the labels each carries, the kube-prometheus-stack setting
// that selects it, and where the dashboard ConfigMap goes. svc is
// resolved for the target (target.Resolve).
func vetOperator(out io.Writer, svc model.Service, o generate.Options) {
	say := func(format string, args ...any) {
		fmt.Fprintf(out, "%s: operator: "+format+"\n", append([]any{svc.Name}, args...)...)
	}
	ns := target.RuleNamespace(svc, o.Namespace)
	if ls := svc.RuleLabels(); len(ls) > 0 {
		say("PrometheusRule slogen-%s in %s carries %s: a Prometheus loads it when its ruleSelector picks them (kube-prometheus-stack: prometheus.prometheusSpec.ruleSelector; unset, it picks release: <the Helm release>) and its ruleNamespaceSelector takes %s (kube-prometheus-stack's takes every namespace)",
			svc.Name, namespace(ns), labelList(ls), namespace(ns))
	} else {
		say("PrometheusRule slogen-%s in %s carries no labels: operator.select_all (or --select-all) says your Prometheus selects every PrometheusRule (kube-prometheus-stack: prometheus.prometheusSpec.ruleSelectorNilUsesHelmValues: false)",
			svc.Name, namespace(ns))
	}
	if svc.Global != nil {
		say("PrometheusRule slogen-%s-global in %s carries %s=global, for the global ruler's ruleSelector (a ThanosRuler's)", svc.Name, namespace(o.Namespace), target.GlobalRulerLabel)
	}
	vetMonitors(say, svc)
	name, value, _ := strings.Cut(o.DashboardLabel, "=")
	dns := target.DashboardNamespace(svc, o.Namespace)
	say("dashboard ConfigMap slogen-%s-dashboard goes to %s and carries %s=%s: Grafana's sidecar loads it when it looks for that label (grafana.sidecar.dashboards.label and labelValue) in %s (grafana.sidecar.dashboards.searchNamespace: kube-prometheus-stack's searches ALL namespaces, the Grafana chart's alone only Grafana's own; else give operator.dashboard_namespace or --dashboard-namespace)",
		svc.Name, namespace(dns), name, value, namespace(dns))
}

// vetMonitors says which monitors scrape the service and what selects
// them, or why it gets scrape configs instead.
func vetMonitors(say func(string, ...any), svc model.Service) {
	s := svc.Scrape
	if s.Mode != model.ScrapeOperator {
		say("scrape configs, not monitors: the spec sets scrape.mode %q; give them to your Prometheus through prometheus.prometheusSpec.additionalScrapeConfigs", s.Mode)
		return
	}
	for _, e := range []struct {
		what, file string
		ep         model.Endpoint
	}{{"the runtime", svc.Name + "/" + scrape.MonitorsFile, s.Runtime}, {"dcgm-exporter", scrape.DCGMMonitorsFile, s.DCGM}} {
		kind, selector := "PodMonitor", "podMonitorSelector"
		if e.ep.Monitor == model.ServiceMonitor {
			kind, selector = "ServiceMonitor", "serviceMonitorSelector"
		}
		carries := "no labels, which only a Prometheus that selects every " + kind + " picks"
		if ls := svc.MonitorLabels(); len(ls) > 0 {
			carries = labelList(ls)
		}
		say("%s scrapes %s (%s) and carries %s: a Prometheus scrapes it when its %s picks them (kube-prometheus-stack: prometheus.prometheusSpec.%s; unset, it picks release: <the Helm release>)",
			kind, e.what, e.file, carries, selector, selector)
	}
}

func labelList(ls []labels.Label) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.Name + "=" + l.Value
	}
	return strings.Join(parts, ", ")
}

// namespace names a namespace, or says that kubectl's picks it.
func namespace(ns string) string {
	if ns == "" {
		return "the namespace kubectl applies it to"
	}
	return "namespace " + ns
}
