package rules

import (
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// Build returns the rule groups of one service: the page windows'
// recordings and the alerts, evaluated every cycle (recordings first, so
// alerts read fresh values), and on a slower interval the recordings of
// the long windows, the period and its error budget. For a service that
// spans clusters they are its local groups, then its global ones.
func Build(svc model.Service) []Group {
	local, global := Split(svc)
	return append(local, global...)
}

// Split returns the groups every Prometheus that scrapes the service
// runs, and those a global ruler runs over every cluster's recordings;
// global is nil for a service in one Prometheus, which runs them all.
func Split(svc model.Service) (local, global []Group) {
	if svc.Global != nil {
		return splitGroups(svc)
	}
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
	return []Group{sli, periodGroup(svc)}, nil
}

// periodGroup evaluates the long windows, the period and the budget on
// the period group's slower interval.
func periodGroup(svc model.Service) Group {
	return Group{Name: "slogen-" + svc.Name + "-slo-period", Interval: genfile.Duration(PeriodInterval), Rules: append(periodRecordings(svc), budgetAlerts(svc)...)}
}
