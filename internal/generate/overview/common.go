package overview

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/pql"
)

// datasource points every query at the dashboard's datasource variable:
// one that sees every service's recordings and alerts (a global ruler, or
// Thanos or Mimir in front of the clusters, where services span several).
var datasource = grafana.Datasource

// variables are the datasource, then the team and runtime filters, both
// over the services' info: a runtime is listed when a picked team runs it.
func variables() []cog.Builder[dashboard.VariableModel] {
	return []cog.Builder[dashboard.VariableModel]{
		dashboard.NewDatasourceVariableBuilder("datasource").Label("Data source").Type("prometheus"),
		filter("team", "Team", pql.Metric(ServiceInfo)),
		filter("runtime", "Runtime", pql.Metric(ServiceInfo, pql.Re("team", "$team"))),
	}
}

// filter is a multi-value variable listing a label's values, All by
// default.
func filter(label, title string, sel pql.Expr) cog.Builder[dashboard.VariableModel] {
	return grafana.Filter(label, title, "label_values("+pql.Print(sel)+", "+label+")", dashboard.VariableSortNaturalAsc)
}

// refID names the i-th query of a panel: A, B, C…
func refID(i int) string { return string(rune('A' + i)) }

func target(i int, e pql.Expr, legend string) *prometheus.DataqueryBuilder {
	return prometheus.NewDataqueryBuilder().
		Datasource(datasource).
		Expr(pql.Print(e)).
		LegendFormat(legend).
		RefId(refID(i))
}

// tableTarget is an instant query whose series become a table's rows,
// a column per label.
func tableTarget(i int, e pql.Expr) *prometheus.DataqueryBuilder {
	return target(i, e, "").Instant().Format(prometheus.PromQueryFormatTable)
}

// step is a threshold: from value up, the colour applies.
type step struct {
	value float64
	color string
}

func thresholds(base string, steps ...step) dashboard.ThresholdsConfig {
	ts := []dashboard.Threshold{{Color: base}}
	for _, s := range steps {
		ts = append(ts, dashboard.Threshold{Value: cog.ToPtr(s.value), Color: s.color})
	}
	return dashboard.ThresholdsConfig{Mode: dashboard.ThresholdsModeAbsolute, Steps: ts}
}

// timeseriesPanel plots one query, a series per worst service, each named
// after its service.
func timeseriesPanel(title, description, unit string, e pql.Expr) *timeseries.PanelBuilder {
	return grafana.Timeseries(title, description, unit).AxisSoftMin(0).WithTarget(target(0, e, "{{service}}"))
}

// withLine draws a level as a dashed line, the series base below it and
// the step's colour above.
func withLine(p *timeseries.PanelBuilder, base string, s step) *timeseries.PanelBuilder {
	th := thresholds(base, s)
	return p.Thresholds(dashboard.NewThresholdsConfigBuilder().Mode(th.Mode).Steps(th.Steps)).
		ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().Mode(common.GraphThresholdsStyleModeDashed))
}
