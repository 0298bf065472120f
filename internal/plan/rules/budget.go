package rules

import (
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// coverageRecordings record, per period the service's SLOs use, the share
// of it the period group has samples for: their count times the group's
// interval, over the period. One rule serves every SLO of a period, as
// the samples carry the slo label.
func coverageRecordings(svc model.Service) []Rule {
	byPeriod := map[time.Duration][]string{}
	for _, slo := range svc.SLOs {
		byPeriod[slo.Period.Duration] = append(byPeriod[slo.Period.Duration], slo.Name)
	}
	var rs []Rule
	for _, p := range slices.Sorted(maps.Keys(byPeriod)) {
		sel := ServiceSeries(DownsampledRequestsMetric, svc)
		if names := byPeriod[p]; len(names) < len(svc.SLOs) {
			sel = pql.Metric(DownsampledRequestsMetric, pql.Eq("service", svc.Name), pql.OneOf("slo", names...))
		}
		samples := pql.Mul(pql.Call("count_over_time", pql.Range(sel, p)), pql.Num(PeriodInterval.Seconds()))
		rs = append(rs, Rule{
			Record: CoverageMetric,
			Expr:   pql.Call("clamp_max", pql.Div(samples, pql.Num(p.Seconds())), pql.Num(1)),
			Labels: serviceLabels(svc),
		})
	}
	return rs
}

// budgetAlerts open a ticket (by default) when an SLO has spent its
// period's error budget, and a warning when little of it is left: the
// error-budget policy's triggers. They read the budget left, a slow
// figure, so they need no `for`.
func budgetAlerts(svc model.Service) []Rule {
	a := svc.Alerting
	if a.BudgetSeverity == "" {
		return nil
	}
	left := ServiceSeries(BudgetRemainingMetric, svc)
	return []Rule{{
		Alert:       BudgetGoneAlert,
		Expr:        pql.Le(left, pql.Num(0)),
		Labels:      BudgetLabels(svc),
		Annotations: BudgetGoneAnnotations(svc),
	}, {
		Alert:       BudgetLowAlert,
		Expr:        pql.Gt(pql.Le(left, pql.Num(a.BudgetWarnRemaining)), pql.Num(0)),
		Labels:      BudgetLabels(svc),
		Annotations: BudgetLowAnnotations(svc),
	}}
}

// BudgetLabels are the rule labels of the error-budget alerts; each alert
// also carries the slo label of the recording it read.
func BudgetLabels(svc model.Service) map[string]string {
	return alertLabels(svc, svc.Alerting.BudgetSeverity)
}

// SLOTemplate names the SLO in the error-budget alerts' annotations: one
// rule serves every SLO.
const SLOTemplate = "{{ $labels.slo }}"

// BudgetGoneAnnotations are the exhausted-budget alert's annotations.
func BudgetGoneAnnotations(svc model.Service) map[string]string {
	return withRunbook(svc, BudgetGoneAlert, map[string]string{
		"summary": fmt.Sprintf("%s has spent the error budget of its %s SLO", EscapeTemplate(svc.Name), SLOTemplate),
		"description": fmt.Sprintf("The %s SLO of %s has no error budget left for its period. Spend none on risk: freeze risky changes and put reliability work first, as the error-budget policy says.",
			SLOTemplate, EscapeTemplate(svc.Name)),
	})
}

// BudgetLowAnnotations are the low-budget alert's annotations.
func BudgetLowAnnotations(svc model.Service) map[string]string {
	return withRunbook(svc, BudgetLowAlert, map[string]string{
		"summary": fmt.Sprintf("%s has at most %s of the error budget of its %s SLO left", EscapeTemplate(svc.Name), SharePercent(svc.Alerting.BudgetWarnRemaining), SLOTemplate),
		"description": fmt.Sprintf("The %s SLO of %s has %s or less of its period's error budget left. Slow down risky changes before it runs out.",
			SLOTemplate, EscapeTemplate(svc.Name), SharePercent(svc.Alerting.BudgetWarnRemaining)),
	})
}

// num writes a spec's number as its shortest decimal.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// SharePercent writes a spec's share as a percentage, in exact decimals: 0.1
// is 10%, not 10.000000000000002%.
func SharePercent(f float64) string {
	r, _ := new(big.Rat).SetString(num(f))
	return Percent(r) + "%"
}
