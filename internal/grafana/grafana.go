// Package grafana holds what the outputs that build Grafana dashboards
// (internal/generate/dashboard, internal/generate/overview) share on top of
// the foundation SDK: writing a dashboard deterministically, numbering
// its panels, and placing a panel where a layout decides.
package grafana

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
)

// Marshal writes the dashboard as indented JSON. Field order follows the
// SDK's structs and maps are sorted, so output is deterministic; HTML
// escaping is off so that PromQL's > and < stay readable.
func Marshal(d dashboard.Dashboard) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encoding dashboard %s: %w", uid(d), err)
	}
	return b.Bytes(), nil
}

func uid(d dashboard.Dashboard) string {
	if d.Uid == nil {
		return "without a UID"
	}
	return *d.Uid
}

// NumberPanels gives every panel and row an id, in order. The SDK assigns
// none and gives every row 0, but Grafana needs them unique.
func NumberPanels(d *dashboard.Dashboard) {
	id := uint32(0)
	for _, p := range d.Panels {
		id++
		switch {
		case p.Panel != nil:
			p.Panel.Id = cog.ToPtr(id)
		case p.RowPanel != nil:
			p.RowPanel.Id = id
		}
	}
}

// Placed sets a panel's place as it is built: the SDK's builders take
// their position up front, but a layout decides it. The SDK keeps a
// position unless it is the grid's origin, where it puts the first panel
// anyway.
type Placed struct {
	Panel cog.Builder[dashboard.Panel]
	Pos   dashboard.GridPos
}

// Build builds the panel at its place.
func (p Placed) Build() (dashboard.Panel, error) {
	built, err := p.Panel.Build()
	if err != nil {
		return built, err
	}
	built.GridPos = &p.Pos
	return built, nil
}

// Datasource points a query at the dashboard's datasource variable.
var Datasource = common.DataSourceRef{Type: cog.ToPtr("prometheus"), Uid: cog.ToPtr("${datasource}")}

// AllValue is what a filter matches when set to All: every value, and
// series that lack the label too.
const AllValue = ".*"

// Filter is a multi-value variable listing what query (a label_values
// query) returns, All by default.
func Filter(name, title, query string, sort dashboard.VariableSort) *dashboard.QueryVariableBuilder {
	return dashboard.NewQueryVariableBuilder(name).
		Label(title).
		Datasource(Datasource).
		Query(dashboard.StringOrMap{String: cog.ToPtr(query)}).
		Definition(query).
		Refresh(dashboard.VariableRefreshOnTimeRangeChanged).
		Sort(sort).
		Multi(true).
		IncludeAll(true).
		AllValue(AllValue).
		Current(dashboard.VariableOption{
			Selected: cog.ToPtr(true),
			Text:     dashboard.StringOrArrayOfString{ArrayOfString: []string{"All"}},
			Value:    dashboard.StringOrArrayOfString{ArrayOfString: []string{"$__all"}},
		})
}

// Timeseries is a time series panel as slogen's dashboards draw them: thin
// lines over a light fill, the legend below as a list, and a tooltip that
// lists every series, highest first. Its queries are the caller's.
func Timeseries(title, description, unit string) *timeseries.PanelBuilder {
	return timeseries.NewPanelBuilder().
		Title(title).
		Description(description).
		Datasource(Datasource).
		Unit(unit).
		LineWidth(1).
		FillOpacity(10).
		Legend(common.NewVizLegendOptionsBuilder().ShowLegend(true).DisplayMode(common.LegendDisplayModeList).Placement(common.LegendPlacementBottom)).
		Tooltip(common.NewVizTooltipOptionsBuilder().Mode(common.TooltipDisplayModeMulti).Sort(common.SortOrderDescending))
}
