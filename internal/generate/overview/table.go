package overview

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// column is one value column of the SLO table: one instant query, whose
// series the merge transformation joins with the other columns' by their
// labels, one row per SLO (and value of its group_by labels).
type column struct {
	title, unit string
	expr        pql.Expr
	style       []dashboard.DynamicConfigValue
}

// Column titles the table and its tests name.
const (
	SLIColumn           = "SLI"
	ObjectiveColumn     = "Objective"
	BudgetColumn        = "Budget left"
	CoverageColumn      = "Coverage"
	SLOAlertsColumn     = "SLO alerts"
	ServiceAlertsColumn = "Service alerts"
)

// BurnColumn titles the burn rate over a window.
func BurnColumn(w string) string { return "Burn " + w }

// The windows of the burn columns: the page tiers' long windows.
var burnWindows = []model.Tier{model.PageFast, model.PageSlow}

// columns are the table's value columns, in order. The budget's query
// makes the rows; every other column has a value, or NaN, on each of them
// (the alert counts, 0 where none fires).
func (f fleet) columns() []column {
	cs := []column{
		{SLIColumn, units.PercentUnit, f.everyRow(f.sli()), decimals(3)},
		{ObjectiveColumn, units.PercentUnit, f.everyRow(objective()), nil},
		{BudgetColumn, units.PercentUnit, budgetLeft(), append(decimals(1),
			cells(common.TableCellDisplayModeColorBackground, thresholds("red", step{0.25, "orange"}, step{0.5, "green"}))...)},
		{CoverageColumn, units.PercentUnit, f.everyRow(coverage()), decimals(0)},
	}
	for _, t := range burnWindows {
		w := model.TierWindows[t].Long
		cs = append(cs, column{BurnColumn(genfile.Duration(w)), "suffix:×", f.everyRow(f.burn(w)),
			append(decimals(2), cells(common.TableCellDisplayModeColorText, thresholds("green", step{1, "orange"}))...)})
	}
	return append(cs,
		column{SLOAlertsColumn, "none", onlyPicked(f.sloAlerts()), cells(common.TableCellDisplayModeColorBackground, thresholds("transparent", step{1, "red"}))},
		column{ServiceAlertsColumn, "none", onlyPicked(serviceAlerts()), cells(common.TableCellDisplayModeColorBackground, thresholds("transparent", step{1, "orange"}))},
	)
}

func decimals(n int) []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{{Id: "decimals", Value: n}}
}

// cells colour a column's cells by thresholds.
func cells(mode common.TableCellDisplayMode, th dashboard.ThresholdsConfig) []dashboard.DynamicConfigValue {
	return []dashboard.DynamicConfigValue{
		{Id: "custom.cellOptions", Value: map[string]any{"type": mode}},
		{Id: "thresholds", Value: th},
	}
}

// valueField is the name Grafana gives a table query's values: Value #A.
func valueField(i int) string { return "Value #" + refID(i) }

// sloTable is every picked SLO in one table, the least budget left
// first; a click on a service opens its dashboard.
func (f fleet) sloTable() cog.Builder[dashboard.Panel] {
	cs := f.columns()
	p := table.NewPanelBuilder().
		Title("SLOs, least error budget left first").
		Description(tableDescription).
		Datasource(datasource).
		Unit("none").
		NoValue("-").
		Mappings([]dashboard.ValueMapping{{SpecialValueMap: &dashboard.SpecialValueMap{
			Type:    dashboard.MappingTypeSpecialValue,
			Options: dashboard.DashboardSpecialValueMapOptions{Match: dashboard.SpecialValueMatchNaN, Result: dashboard.ValueMappingResult{Text: cog.ToPtr("-")}},
		}}}).
		SortBy([]cog.Builder[common.TableSortByFieldState]{common.NewTableSortByFieldStateBuilder().DisplayName(BudgetColumn).Desc(false)}).
		Footer(common.NewTableFooterOptionsBuilder().Show(false).Reducer([]string{})). // Grafana's schema requires a reducer
		CellHeight(common.TableCellHeightSm).
		Filterable(true)
	renames := map[string]string{}
	for i, c := range cs {
		p.WithTarget(tableTarget(i, c.expr))
		renames[valueField(i)] = c.title
		p.OverrideByName(c.title, append([]dashboard.DynamicConfigValue{{Id: "unit", Value: c.unit}}, c.style...))
	}
	p.WithTransformation(dashboard.DataTransformerConfig{Id: "merge", Options: map[string]any{}})
	p.WithTransformation(dashboard.DataTransformerConfig{Id: "organize", Options: map[string]any{
		"excludeByName": map[string]bool{"Time": true},
		"indexByName":   f.columnOrder(len(cs)),
		"renameByName":  renames,
	}})
	p.OverrideByName("service", []dashboard.DynamicConfigValue{{Id: "links", Value: []dataLink{serviceLink()}}})
	p.OverrideByName(infoDashboard, []dashboard.DynamicConfigValue{{Id: "custom.hidden", Value: true}})
	return p
}

// columnOrder puts the labels that name a row first, then the team,
// runtime and model, then the values.
func (f fleet) columnOrder(values int) map[string]int {
	order := map[string]int{}
	for i, l := range append(f.keys(), "team", "runtime", infoModel) {
		order[l] = i
	}
	for i := range values {
		order[valueField(i)] = len(order)
	}
	return order
}

// dataLink is a link on a table cell, Grafana's field config links.
type dataLink struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// serviceLink opens the dashboard the row's service is drawn on, with the
// service picked and the same time range. The dashboard's UID is a hidden
// column of the row, from the service's info.
func serviceLink() dataLink {
	return dataLink{
		Title: "Open ${__data.fields.service}",
		URL:   "/d/${__data.fields.dashboard}?var-service=${__data.fields.service}&${__url_time_range}",
	}
}

var tableDescription = fmt.Sprintf("One row per SLO, and per value of its group_by labels: "+
	"the SLI over the SLO's period; its objective; the share of the period's error budget left (at 0 it is spent); "+
	"how much of the period Prometheus has recordings for (until all of it, the budget counts what it has); "+
	"the burn rate over the page tiers' windows, the error ratio over the budget: above 1× the budget runs out before the period ends; "+
	"the firing alerts about the SLO, and those about the service but no SLO (GPU and serving alerts, a traffic drop). "+
	"Sorted by budget left, least first; a click on a service opens its dashboard. Rows of a split SLO are per value of its labels; "+
	"the burn alerts and the %d-service diagnosis below read the same recordings.", worstCount)
