package dashboard

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A fleet draws the services of one kind (plan.Kind) on one dashboard,
// built from any one of them: its identity becomes variables. The
// service variable picks a service; hidden variables, each one value
// read from slogen:service_info for it, stand for its selector values,
// model and GPUs; objectives and thresholds come from its recordings.
// What is left is the same for every service of the kind.

// Variables of a kind dashboard.
const (
	serviceVar = "service"
	// modelVar is the model for an equality matcher, modelRegexVar the
	// same value for a regular expression: Grafana escapes a multi-value
	// variable's regex metacharacters, and no other's.
	modelVar      = "model"
	modelRegexVar = "model_re"
)

// selectorVar is the hidden variable holding the value of the
// selector's label l.
func selectorVar(l string) string { return "selector_" + l }

// BuildKind returns the dashboard of a fleet's services of p's kind:
// p's dashboard with its identity, objectives and thresholds read from
// variables and recordings.
func BuildKind(p *plan.Service) (dashboard.Dashboard, error) {
	svc := kindService(p.Svc)
	// The alerts' plan, planned again for the variables: the diagnosis
	// reads the recordings its alerts read.
	s := scope{svc: svc, alerts: gpualerts.NewPlan(svc), runtime: p.Runtime, kindUID: p.DashboardUID}
	title := fmt.Sprintf("%s services (%s): SLOs and vital signs", p.Svc.Runtime, p.Kind)
	return assemble(s, dashboard.NewDashboardBuilder(title).
		Uid(p.DashboardUID).
		Description(fmt.Sprintf("SLOs and the four vital signs of the %s services of one kind (%s): pick one in the service variable. %s", p.Svc.Runtime, p.Kind, Generated)).
		Tags([]string{"slogen", p.Svc.Runtime, "fleet"}))
}

// kindService is svc with its identity written as the kind dashboard's
// variables, which Grafana replaces in every query.
func kindService(svc model.Service) model.Service {
	svc.Name = "$" + serviceVar
	svc.Selector = append([]labels.Label(nil), svc.Selector...)
	for i, l := range svc.Selector {
		svc.Selector[i].Value = "$" + selectorVar(l.Name)
	}
	if svc.Model != "" {
		svc.Model = "$" + modelVar
	}
	svc.DCGM.Matchers = kindGPUMatchers(svc.DCGM)
	return svc
}

// kindGPUMatchers select the picked service's GPUs: dcgm-exporter's job,
// then its pods (and namespace) or hosts as service_info records them.
func kindGPUMatchers(d model.DCGM) []*labels.Matcher {
	ms := []*labels.Matcher{pql.Eq("job", d.Job)}
	if d.Mapping == model.MappingHost {
		return append(ms, re("Hostname", "${"+rules.InfoDCGMHosts+":raw}"))
	}
	if d.Namespace != "" {
		ms = append(ms, pql.Eq(d.NamespaceLabel(), "$"+rules.InfoDCGMNamespace))
	}
	return append(ms, re(d.PodLabel(), "${"+rules.InfoDCGMPod+":raw}"))
}

// kindVariables are the service variable, listing the services drawn on
// this dashboard, and the hidden ones that follow from it.
func kindVariables(s scope) []cog.Builder[dashboard.VariableModel] {
	list := model.Metric(rules.InfoMetric).With(pql.Eq(rules.InfoDashboard, s.kindUID))
	vs := []cog.Builder[dashboard.VariableModel]{picked(serviceVar, "Service", pql.LabelValues(list, "service"), false).Hide(dashboard.VariableHideDontHide)}
	info := model.Metric(rules.InfoMetric).With(pql.Eq("service", "$"+serviceVar))
	hidden := func(name, label string, multi bool) {
		vs = append(vs, picked(name, name, pql.LabelValues(info, label), multi).Hide(dashboard.VariableHideHideVariable))
	}
	for _, l := range s.svc.Selector {
		hidden(selectorVar(l.Name), rules.InfoSelectorLabel(l.Name), false)
	}
	if s.svc.Model != "" {
		hidden(modelVar, rules.InfoModel, false)
		hidden(modelRegexVar, rules.InfoModel, true)
	}
	if s.svc.DCGM.Mapping == model.MappingHost {
		hidden(rules.InfoDCGMHosts, rules.InfoDCGMHosts, false)
	} else {
		if s.svc.DCGM.Namespace != "" {
			hidden(rules.InfoDCGMNamespace, rules.InfoDCGMNamespace, false)
		}
		hidden(rules.InfoDCGMPod, rules.InfoDCGMPod, false)
	}
	return vs
}

// picked is a variable of one value, the first listed unless the URL
// sets it (var-service=...). A hidden one lists one value, the picked
// service's; multi has Grafana escape it for a regular expression.
func picked(name, title, query string, multi bool) *dashboard.QueryVariableBuilder {
	return dashboard.NewQueryVariableBuilder(name).
		Label(title).
		Datasource(datasource).
		Query(dashboard.StringOrMap{String: cog.ToPtr(query)}).
		Definition(query).
		Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
		Sort(dashboard.VariableSortNaturalAsc).
		Multi(multi).
		IncludeAll(false)
}

// kind reports whether the dashboard is a kind's, drawn for every
// service of it.
func (s scope) kind() bool { return s.kindUID != "" }

// objective is an SLO's objective as a number in a query: the spec's, or
// on a kind dashboard the picked service's recording of it.
func (s scope) objective(slo model.SLO) pql.Expr {
	if !s.kind() {
		return number(ratio(slo.Objective))
	}
	return pql.Call("scalar", rules.SLOSeries(rules.ObjectiveMetric, s.svc, slo))
}

// budget is an SLO's error budget, 1 − objective, as objective reads it.
func (s scope) budget(slo model.SLO) pql.Expr {
	if !s.kind() {
		return pql.Decimal(model.FormatRat(slo.ErrorBudget()))
	}
	return pql.Paren(pql.Sub(pql.Num(1), s.objective(slo)))
}

// objectiveLine draws an SLO's objective: a constant series, or on a
// kind dashboard the picked service's recording.
func (s scope) objectiveLine(slo model.SLO) pql.Expr {
	if !s.kind() {
		return vector(ratio(slo.Objective))
	}
	return rules.SLOSeries(rules.ObjectiveMetric, s.svc, slo)
}

// budgetLine draws an SLO's error budget, 1 − objective, as
// objectiveLine draws the objective.
func (s scope) budgetLine(slo model.SLO) pql.Expr {
	if !s.kind() {
		return vector(ratio(slo.ErrorBudget()))
	}
	return pql.Sub(pql.Num(1), rules.SLOSeries(rules.ObjectiveMetric, s.svc, slo))
}

// threshold is the line of one latency bound of an SLO: the spec's, or on
// a kind dashboard the picked service's recording of it.
func (s scope) threshold(slo model.SLO, b model.Bound) pql.Expr {
	if !s.kind() {
		return vector(b.Threshold.Seconds())
	}
	sel := rules.SLOSeries(rules.ThresholdMetric, s.svc, slo)
	if slo.Kind == model.Goodput {
		sel.LabelMatchers = append(sel.LabelMatchers, pql.Eq(rules.BoundLabel, string(b.Kind)))
	}
	return sel
}

// kindLegend drops from a legend what a kind dashboard cannot know: the
// figures that differ between its services.
func (s scope) kindLegend(alone, kind string) string {
	if s.kind() {
		return kind
	}
	return alone
}
