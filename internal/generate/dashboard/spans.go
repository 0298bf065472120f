package dashboard

import (
	"strconv"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// tracesVar is the variable picking the trace data source (Tempo) that
// the span panel's links open.
const tracesVar = "traces"

// hasSpans reports whether the service's Collector computes span
// metrics: it has a collector block and its runtime writes spans.
func (s scope) hasSpans() bool {
	return s.svc.Collector != nil && profile.TelemetryOf(s.svc.Runtime).Spans
}

// tracesVariable is the trace data source variable, on a dashboard with
// span metrics only.
func tracesVariable(s scope) []cog.Builder[dashboard.VariableModel] {
	if !s.hasSpans() {
		return nil
	}
	return []cog.Builder[dashboard.VariableModel]{dashboard.NewDatasourceVariableBuilder(tracesVar).Label("Trace data source").Type("tempo")}
}

// whereTheTimeGoes is P50 and P99 of every span name of the service, from
// the Collector's span metrics of every request, before sampling: the
// request's stages where the runtime writes a span per stage (SGLang),
// the whole request where it writes one (vLLM's llm_request). Exemplars
// are on: each is a span the connector saw, with its trace ID, which the
// Prometheus data source links to the trace store. Each line links to
// the traces of its span name in Explore.
func whereTheTimeGoes(s scope) cog.Builder[dashboard.Panel] {
	if !s.hasSpans() {
		return nil
	}
	buckets := model.Metric(plan.SpanDuration + "_bucket").With(pql.Eq(plan.SpanService, s.svc.Name))
	p := grafana.Timeseries("Where the time goes",
		"P50 and P99 of each span of the service's requests, from the OpenTelemetry Collector's span metrics of every request (not only the traces kept): a span per stage where the runtime writes one. Exemplars link to their traces; a line links to the traces of its span.",
		units.Seconds).
		ScaleDistribution(common.NewScaleDistributionConfigBuilder().Type(common.ScaleDistributionLog).Log(10)).
		DataLinks([]cog.Builder[dashboard.DashboardLink]{spanTracesLink(s.svc.Name)})
	for i, q := range []float64{0.5, 0.99} {
		e := pql.Call("histogram_quantile", number(q), sumBy(rate(buckets), plan.SpanName, "le"))
		p.WithTarget(target(i, plot(e, "{{"+plan.SpanName+"}} P"+num(q*100))).Exemplar(true))
	}
	return p
}

// spanTracesLink opens, in Explore on the picked trace data source, the
// traces of the clicked line's span name over the dashboard's time range.
func spanTracesLink(service string) cog.Builder[dashboard.DashboardLink] {
	query := "{ resource.service.name = " + strconv.Quote(service) + " && name = \"${__field.labels." + plan.SpanName + "}\" }"
	return dashboard.NewDashboardLinkBuilder("Traces of ${__field.labels." + plan.SpanName + "}").
		Type(dashboard.DashboardLinkTypeLink).
		Url("/explore?schemaVersion=1&panes=" + plan.ExplorePanes("${"+tracesVar+"}", query, "${__from}", "${__to}")).
		TargetBlank(true)
}
