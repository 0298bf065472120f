package dashboard

import (
	"strings"
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// groupVar names the variable that picks values of a group_by label,
// apart from the dashboard's own filters.
func groupVar(label string) string { return "slo_" + label }

// groupVariables list, per group_by label, the values the SLO recordings
// carry, so the SLO row shows the picked models (or tenants) only.
func groupVariables(svc model.Service) []cog.Builder[dashboard.VariableModel] {
	var vs []cog.Builder[dashboard.VariableModel]
	for _, l := range svc.GroupLabels() {
		sel := model.Metric(rules.Requests(model.BaseWindow)).With(pql.Eq("service", svc.Name))
		vs = append(vs, filter(groupVar(l), l, sel, l, dashboard.VariableSortNaturalAsc))
	}
	return vs
}

// recorded selects one SLO's series of a recorded metric, narrowed to
// the picked values of its group_by labels.
func recorded(metric string, svc model.Service, slo model.SLO) *parser.VectorSelector {
	ms := append([]*labels.Matcher{pql.Eq("service", svc.Name), pql.Eq("slo", slo.Name)}, groupNarrowing(slo)...)
	return model.Metric(metric).With(ms...)
}

// sloLegend names an SLO's series, with its group values when it is split.
func sloLegend(slo model.SLO, format string) string {
	if len(slo.GroupBy) == 0 {
		return format
	}
	vals := make([]string, len(slo.GroupBy))
	for i, l := range slo.GroupBy {
		vals[i] = "{{" + l + "}}"
	}
	return strings.Replace(format, slo.Name, slo.Name+" "+strings.Join(vals, " "), 1)
}

// sloErrorRatio is an SLO's error ratio over w as its burn alerts read it,
// narrowed to the picked values of its group_by labels: for a service that
// spans clusters, the clusters' sums, each HA pair counted once.
func sloErrorRatio(w time.Duration, svc model.Service, slo model.SLO) pql.Expr {
	return rules.ErrorRatio(svc, slo, w, groupNarrowing(slo)...)
}
