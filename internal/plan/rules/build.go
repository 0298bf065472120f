package rules

import (
	"slices"

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
// The SLI recordings and the alerts on the service's own series always
// run where the raw series are; the SLO alerts run with the sums.
func Split(svc model.Service) (local, global []Group) { return split(svc, true) }

// split is Split, without the burn-rate and error-budget alerts when
// ownAlerts is false: a fleet's services share those (shared.go).
func split(svc model.Service, ownAlerts bool) (local, global []Group) {
	if len(svc.SLOs) == 0 { // a runtime that serves no SLO kind (llama.cpp)
		return nil, nil
	}
	sli := Group{Name: "slogen-" + svc.Name + "-slo"}
	for _, slo := range svc.SLOs {
		sli.Rules = append(sli.Rules, sliRecordings(svc, slo)...)
	}
	period := periodGroup(svc)
	var alerts []Rule
	if ownAlerts {
		alerts = burnAlerts(svc)
		period.Rules = append(period.Rules, budgetAlerts(svc)...)
	}
	alerts = append(alerts, tooManyGroupsAlerts(svc, append(slices.Clip(sli.Rules), period.Rules...))...)
	watch := []Rule{noDataAlert(svc)}
	if drop, ok := trafficDropAlert(svc); ok {
		watch = append(watch, drop)
	}
	if svc.Global == nil {
		sli.Rules = append(append(sli.Rules, alerts...), watch...)
		return []Group{sli, period}, nil
	}
	sli.Rules = append(sli.Rules, watch...)
	g := Group{Name: "slogen-" + svc.Name + "-slo-global", Rules: []Rule{clusterErrorRatio(svc)}}
	g.Rules = append(append(g.Rules, alerts...), clusterMissingAlert(svc))
	return []Group{sli}, []Group{g, period}
}

// burnAlerts are the burn-rate alerts of every SLO of the service.
func burnAlerts(svc model.Service) []Rule {
	var alerts []Rule
	for _, slo := range svc.SLOs {
		for _, b := range model.BurnRules {
			alerts = append(alerts, burnAlert(svc, slo, b))
		}
	}
	return alerts
}

// periodGroup evaluates the long windows, the period and the budget on
// the period group's slower interval.
func periodGroup(svc model.Service) Group {
	return Group{Name: "slogen-" + svc.Name + "-slo-period", Interval: genfile.Duration(PeriodInterval), Rules: periodRecordings(svc)}
}
