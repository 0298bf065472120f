package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/gauge"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/stat"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/pql"
)

// Shared panel factories, in the manner of the SDK's linux-node-overview
// example. Each sets everything the SDK would otherwise emit as a zero
// value Grafana reads literally (a hidden legend, an empty tooltip mode,
// no reducer).

// datasource points every query at the dashboard's datasource variable.
var datasource = grafana.Datasource

// query is one PromQL query of a panel and the legend of its series.
type query struct {
	expr, legend string
}

// plot is a query of a tree: printed here, once, for Grafana.
func plot(e pql.Expr, legend string) query { return query{pql.Print(e), legend} }

// refID names the i-th query of a panel: A, B, C…
func refID(i int) string { return string(rune('A' + i)) }

func target(i int, q query) *prometheus.DataqueryBuilder {
	return prometheus.NewDataqueryBuilder().
		Datasource(datasource).
		Expr(q.expr).
		LegendFormat(q.legend).
		RefId(refID(i))
}

// step is a threshold: from value up, the color applies.
type step struct {
	value float64
	color string
}

// levels start with base below the first step.
func levels(base string, steps ...step) []dashboard.Threshold {
	ts := []dashboard.Threshold{{Color: base}}
	for _, s := range steps {
		ts = append(ts, dashboard.Threshold{Value: cog.ToPtr(s.value), Color: s.color})
	}
	return ts
}

func thresholds(base string, steps ...step) *dashboard.ThresholdsConfigBuilder {
	return dashboard.NewThresholdsConfigBuilder().Mode(dashboard.ThresholdsModeAbsolute).Steps(levels(base, steps...))
}

// ownThresholds give one query's series thresholds of their own.
func ownThresholds(base string, steps ...step) []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{{Id: "thresholds", Value: dashboard.ThresholdsConfig{Mode: dashboard.ThresholdsModeAbsolute, Steps: levels(base, steps...)}}}
}

func timeseriesPanel(title, description, unit string, qs ...query) *timeseries.PanelBuilder {
	p := grafana.Timeseries(title, description, unit)
	for i, q := range qs {
		p.WithTarget(target(i, q))
	}
	return p
}

// limitLine is a constant series: a bound that an SLO or an alert holds
// a panel's series to, named in the legend, so that a panel drawing
// several signals says whose bound each line is.
func limitLine(value float64, legend string) query {
	return plot(vector(value), legend)
}

// withLimits adds limit lines after the panel's first n queries, drawn
// dashed, red and unfilled.
func withLimits(p *timeseries.PanelBuilder, n int, limits ...query) *timeseries.PanelBuilder {
	for i, l := range limits {
		p.WithTarget(target(n+i, l)).OverrideByQuery(refID(n+i), limitStyle())
	}
	return p
}

func limitStyle() []dashboard.DynamicConfigValue {
	return append(dashed(),
		dashboard.DynamicConfigValue{Id: "color", Value: dashboard.FieldColor{Mode: dashboard.FieldColorModeIdFixed, FixedColor: cog.ToPtr("red")}},
		dashboard.DynamicConfigValue{Id: "custom.fillOpacity", Value: 0},
	)
}

// withLines draws thresholds as dashed lines: the limits an alert or a
// tier compares the series against.
func withLines(p *timeseries.PanelBuilder, base string, steps ...step) *timeseries.PanelBuilder {
	return p.Thresholds(thresholds(base, steps...)).
		ThresholdsStyle(common.NewGraphThresholdsStyleConfigBuilder().Mode(common.GraphThresholdsStyleModeDashed))
}

// lastValue reduces a series to its latest value, for stats and gauges.
func lastValue() *common.ReduceDataOptionsBuilder {
	return common.NewReduceDataOptionsBuilder().Calcs([]string{"lastNotNull"}).Values(false)
}

func statPanel(title, description, unit string, qs ...query) *stat.PanelBuilder {
	p := stat.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(datasource).
		Unit(unit).
		ColorMode(common.BigValueColorModeBackground).
		GraphMode(common.BigValueGraphModeNone).
		TextMode(common.BigValueTextModeValueAndName).
		JustifyMode(common.BigValueJustifyModeAuto).
		Orientation(common.VizOrientationAuto).
		ReduceOptions(lastValue())
	for i, q := range qs {
		p.WithTarget(target(i, q).Instant())
	}
	return p
}

func gaugePanel(title, description, unit string, qs ...query) *gauge.PanelBuilder {
	p := gauge.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(datasource).
		Unit(unit).
		Orientation(common.VizOrientationAuto).
		ShowThresholdMarkers(true).
		ReduceOptions(lastValue())
	for i, q := range qs {
		p.WithTarget(target(i, q).Instant())
	}
	return p
}

// rightAxis moves a query's series to a right-hand axis in their own unit.
func rightAxis(unit string) []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{
		{Id: "unit", Value: unit},
		{Id: "custom.axisPlacement", Value: common.AxisPlacementRight},
	}
}

// noThresholdLine keeps the panel's threshold line off a query's series,
// which are in another unit on their own axis.
func noThresholdLine() []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{{Id: "custom.thresholdsStyle", Value: common.GraphThresholdsStyleConfig{Mode: common.GraphThresholdsStyleModeOff}}}
}

// dashed draws a query's series dashed: projections, not measurements.
func dashed() []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{
		{Id: "custom.lineStyle", Value: common.LineStyle{Fill: cog.ToPtr(common.LineStyleFillDash), Dash: []float64{10, 10}}},
	}
}
