package dashboard

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// burnWindow is the window the burn-rate panel plots: the fast page's
// long window, quick to react yet not as noisy as the base 5m.
var burnWindow = model.TierWindows[model.PageFast].Long

// sloPanels are one panel per signal holding every SLO, rather than one
// per SLO, so that any number of SLOs costs three panels.
func sloPanels(s scope) []cog.Builder[dashboard.Panel] {
	if len(s.svc.SLOs) == 0 {
		return nil
	}
	sli := sliStat(s.svc)
	if s.kind() {
		sli = kindSLIStat(s)
	}
	return []cog.Builder[dashboard.Panel]{sli, budgetGauge(s.svc), burnRate(s)}
}

// sliStat shows each SLO's SLI over its period from the period
// recordings, green at or above the objective and red below it. Each
// query carries its own objective as an override.
func sliStat(svc model.Service) cog.Builder[dashboard.Panel] {
	var qs []query
	for _, slo := range svc.SLOs {
		p := slo.Period.Duration
		qs = append(qs, plot(good(sloErrorRatio(p, svc, slo)),
			sloLegend(slo, fmt.Sprintf("%s (objective %s%%)", slo.Name, rules.Percent(slo.Objective)))))
	}
	panel := statPanel("SLI over the SLO period",
		"Share of good events over each SLO's whole period (slogen's period recordings), green when it meets the objective.",
		units.PercentUnit, qs...).
		Decimals(3).
		Thresholds(thresholds("red", step{ratio(svc.SLOs[0].Objective), "green"}))
	for i, slo := range svc.SLOs {
		panel.OverrideByQuery(refID(i), ownThresholds("red", step{ratio(slo.Objective), "green"}))
	}
	return panel
}

// kindSLIStat is sliStat on a kind dashboard, whose services' objectives
// differ: Grafana's thresholds are constants, so each SLO's objective is
// shown beside its SLI, in blue, rather than colouring it.
func kindSLIStat(s scope) cog.Builder[dashboard.Panel] {
	var qs []query
	for _, slo := range s.svc.SLOs {
		qs = append(qs, plot(good(sloErrorRatio(slo.Period.Duration, s.svc, slo)), sloLegend(slo, slo.Name)))
	}
	for _, slo := range s.svc.SLOs {
		qs = append(qs, plot(s.objectiveLine(slo), slo.Name+" objective"))
	}
	panel := statPanel("SLI over the SLO period",
		"Share of good events over each SLO's whole period (slogen's period recordings), and in blue the service's objective for it.",
		units.PercentUnit, qs...).
		Decimals(3).
		Thresholds(thresholds("text"))
	for i := range s.svc.SLOs {
		panel.OverrideByQuery(refID(len(s.svc.SLOs)+i), ownThresholds("blue"))
	}
	return panel
}

// budgetGauge shows the share of each period's error budget still left,
// and beside it, in blue, how much of the period the figure covers: a
// Prometheus younger than the period, or keeping less of it, counts only
// what it has.
func budgetGauge(svc model.Service) cog.Builder[dashboard.Panel] {
	var qs []query
	for _, slo := range svc.SLOs {
		qs = append(qs, plot(recorded(rules.BudgetRemainingMetric, svc, slo), sloLegend(slo, slo.Name)))
	}
	for _, slo := range svc.SLOs {
		qs = append(qs, plot(recorded(rules.CoverageMetric, svc, slo), sloLegend(slo, slo.Name+": share of "+slo.Period.Name+" covered")))
	}
	panel := gaugePanel("Error budget remaining",
		"Share of each SLO's error budget for its period that is not spent yet: the errors seen so far against the budget of the whole period. "+
			"At 0 the budget is spent. The blue gauges say how much of the period Prometheus has recordings for; until that is all of it, the budget counts what it has.",
		units.PercentUnit, qs...).
		Decimals(1).
		Min(0).
		Max(1).
		Thresholds(thresholds("red", step{0.25, "orange"}, step{0.5, "green"}))
	for i := range svc.SLOs {
		panel.OverrideByQuery(refID(len(svc.SLOs)+i), ownThresholds("blue"))
	}
	return panel
}

// burnRate plots how many times faster than sustainable each SLO spends
// its budget, with the alert tiers' factors as dashed lines. The factors
// depend on the SLO's period, so each query carries its own.
func burnRate(s scope) cog.Builder[dashboard.Panel] {
	svc := s.svc
	var qs []query
	for _, slo := range svc.SLOs {
		burn := pql.Div(pql.Paren(sloErrorRatio(burnWindow, svc, slo)), s.budget(slo))
		qs = append(qs, plot(burn, sloLegend(slo, slo.Name)))
	}
	panel := timeseriesPanel("Burn rate ("+genfile.Duration(burnWindow)+")", burnDescription(svc), "suffix:×", qs...).AxisSoftMin(0)
	panel = withLines(panel, "green", tierSteps(svc.SLOs[0].Period)...)
	for i, slo := range svc.SLOs {
		panel.OverrideByQuery(refID(i), ownThresholds("green", tierSteps(slo.Period)...))
	}
	return panel
}

// tierSteps colour the burn rate by the slowest tier it exceeds.
func tierSteps(p model.Period) []step {
	colors := map[model.Tier]string{model.TicketSlow: "yellow", model.TicketFast: "orange", model.PageSlow: "red", model.PageFast: "purple"}
	var steps []step
	for _, t := range slices.Backward(model.Tiers) {
		steps = append(steps, step{ratio(t.BurnRate(p)), colors[t]})
	}
	return steps
}

func burnDescription(svc model.Service) string {
	var factors []string
	for _, p := range periods(svc.SLOs) {
		var tiers []string
		for _, t := range model.Tiers {
			tiers = append(tiers, fmt.Sprintf("%s %s×", t, model.FormatRat(t.BurnRate(p))))
		}
		factors = append(factors, fmt.Sprintf("for %s SLOs %s", p.Name, strings.Join(tiers, ", ")))
	}
	return fmt.Sprintf("Error ratio over the last %s divided by the error budget: 1× spends the budget exactly over the SLO period. "+
		"Dashed lines are the alert tiers' factors (%s); a tier holds only when both of its windows exceed its factor, and the page fires while either page tier holds.",
		genfile.Duration(burnWindow), strings.Join(factors, "; "))
}

// periods lists the SLOs' distinct periods, shortest first.
func periods(slos []model.SLO) []model.Period {
	var ps []model.Period
	for _, slo := range slos {
		if !slices.Contains(ps, slo.Period) {
			ps = append(ps, slo.Period)
		}
	}
	slices.SortFunc(ps, func(a, b model.Period) int { return cmp.Compare(a.Duration, b.Duration) })
	return ps
}

func ratio(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}
