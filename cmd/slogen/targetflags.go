package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

// targetFlags say where the rules run and, for the operator target, how
// its Prometheus and Grafana find what slogen writes. build and vet take
// them alike, so that vet explains what that build would write.
type targetFlags struct {
	target, namespace                  string
	dashboardLabel, dashboardNamespace string
	operatorLabels                     []string
	selectAll                          bool
}

func (f *targetFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.target, "target", string(target.Prometheus), "where the rules run: prometheus (rule files), operator (PrometheusRules, monitors and a dashboard ConfigMap), mimir or thanos (their ruler files too)")
	fs.StringVar(&f.namespace, "namespace", "", "with --target operator: the PrometheusRules' namespace, instead of the selector's")
	fs.StringArrayVar(&f.operatorLabels, "operator-label", nil, "with --target operator: a label name=value on the PrometheusRules and monitors, one your Prometheus's selectors pick (e.g. "+target.ExampleRelease+"); repeat it for more; replaces every service's operator.labels")
	fs.BoolVar(&f.selectAll, "select-all", false, "with --target operator: your Prometheus selects every PrometheusRule (kube-prometheus-stack's ruleSelectorNilUsesHelmValues: false), so they may carry no labels")
	fs.StringVar(&f.dashboardNamespace, "dashboard-namespace", "", "with --target operator: the dashboard ConfigMaps' namespace, one Grafana's sidecar searches; replaces every service's operator.dashboard_namespace")
	fs.StringVar(&f.dashboardLabel, "dashboard-label", target.DefaultDashboardLabel, "with --target operator: the label name=value on the dashboard ConfigMap that Grafana's sidecar looks for")
}

// options checks the flags and what the target would write from svcs,
// and returns the generator's options and the spec as the target deploys
// it. Every error is the command line's or the spec's: exit 2.
func (f *targetFlags) options(svcs model.Spec) (generate.Options, model.Spec, error) {
	var o generate.Options
	if !slices.Contains(target.Names, target.Name(f.target)) {
		return o, svcs, failf(exitBadSpec, "--target %q: use one of %v", f.target, target.Names)
	}
	o.Target, o.Namespace = target.Name(f.target), f.namespace
	if given := f.operatorFlags(); o.Target != target.Operator && given != "" {
		return o, svcs, failf(exitBadSpec, "%s applies to --target operator alone; add --target operator, or drop it", given)
	}
	if spanning := globalServices(svcs); o.Target == target.Operator && f.namespace == "" && len(spanning) > 0 {
		return o, svcs, failf(exitBadSpec, "--target operator: %s span clusters (global), so their global ruler gets a PrometheusRule of its own, whose namespace no selector tells; give --namespace, the global ruler's namespace",
			strings.Join(spanning, ", "))
	}
	if name, _, ok := strings.Cut(f.dashboardLabel, "="); !ok || name == "" {
		return o, svcs, failf(exitBadSpec, "--dashboard-label %q: give name=value, e.g. %s", f.dashboardLabel, target.DefaultDashboardLabel)
	}
	o.DashboardLabel = f.dashboardLabel
	over, err := f.overrides()
	if err != nil {
		return o, svcs, fail(exitBadSpec, err)
	}
	o.Operator = over
	resolved := target.Resolve(o.Target, svcs, over)
	if err := target.Check(o.Target, resolved); err != nil {
		return o, svcs, fail(exitBadSpec, err)
	}
	return o, resolved, nil
}

// operatorFlags names the first flag given that only the operator target
// reads, so that it is not silently ignored under another.
func (f *targetFlags) operatorFlags() string {
	switch {
	case len(f.operatorLabels) > 0:
		return "--operator-label"
	case f.selectAll:
		return "--select-all"
	case f.dashboardNamespace != "":
		return "--dashboard-namespace"
	}
	return ""
}

// overrides parses the flags that replace the spec's operator settings.
func (f *targetFlags) overrides() (target.Overrides, error) {
	var o target.Overrides
	for _, arg := range f.operatorLabels {
		name, value, ok := strings.Cut(arg, "=")
		if !ok {
			return o, fmt.Errorf("--operator-label %q: give name=value, e.g. %s", arg, target.ExampleRelease)
		}
		if err := spec.KubernetesLabel(name, value); err != nil {
			return o, fmt.Errorf("--operator-label %q: %w", arg, err)
		}
		o.Labels = append(o.Labels, labels.Label{Name: name, Value: value})
	}
	slices.SortFunc(o.Labels, func(a, b labels.Label) int { return strings.Compare(a.Name, b.Name) })
	if ns := f.dashboardNamespace; ns != "" {
		if err := spec.KubernetesNamespace(ns); err != nil {
			return o, fmt.Errorf("--dashboard-namespace: %w", err)
		}
	}
	o.SelectAll, o.DashboardNamespace = f.selectAll, f.dashboardNamespace
	return o, nil
}
