package rules

import (
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// Build returns the rule groups of one service: the page windows'
// recordings and the alerts, evaluated every cycle (recordings first, so
// alerts read fresh values), and on a slower interval the recordings of
// the long windows, the period and its error budget.
func Build(svc model.Service) []Group {
	sli := Group{Name: "slogen-" + svc.Name + "-slo"}
	for _, slo := range svc.SLOs {
		sli.Rules = append(sli.Rules, sliRecordings(svc, slo)...)
	}
	for _, slo := range svc.SLOs {
		for _, t := range model.Tiers {
			sli.Rules = append(sli.Rules, burnAlert(svc, slo, t))
		}
	}
	sli.Rules = append(sli.Rules, tooManyGroupsAlerts(svc)...)
	sli.Rules = append(sli.Rules, noDataAlert(svc))
	if drop, ok := trafficDropAlert(svc); ok {
		sli.Rules = append(sli.Rules, drop)
	}
	period := Group{Name: "slogen-" + svc.Name + "-slo-period", Interval: genfile.Duration(PeriodInterval), Rules: append(periodRecordings(svc), budgetAlerts(svc)...)}
	return []Group{sli, period}
}
