package gputests

import (
	"fmt"
	"sync"

	"github.com/slogen-dev/slogen/generate/gpualerts"
	"github.com/slogen-dev/slogen/internal/model"
)

// schedules caches the checks planned for a scenario by the shape of the
// service it was planned for. The predictor reads thresholds, hold times,
// GPU memory, objectives and which metrics exist, never names, selectors
// or labels; so a fleet of like services, which most are, works each
// schedule out once instead of once per service.
var schedules sync.Map // string → []check

func cachedPlan(svc model.Service, p predictor, alerts map[string]gpualerts.Alert, sc scenario) ([]check, error) {
	key := sc.name + "\x00" + shape(svc)
	if cs, ok := schedules.Load(key); ok {
		return cs.([]check), nil
	}
	cs, err := plan(p, alerts, sc)
	if err == nil {
		schedules.Store(key, cs)
	}
	return cs, err
}

// shape prints what of a service the predictor can read: everything but
// its identity (names, selectors, labels, where its series come from).
func shape(svc model.Service) string {
	svc.Name, svc.File, svc.Team, svc.Model = "", "", "", ""
	svc.Selector, svc.Alerting.Labels, svc.Alerting.RunbookURL = nil, nil, ""
	svc.DCGM.Pod, svc.DCGM.Namespace, svc.DCGM.Hosts = "", "", nil
	svc.Scrape = model.Scrape{}
	slos := make([]string, len(svc.SLOs))
	for i, s := range svc.SLOs {
		slos[i] = fmt.Sprintf("%s/%s/%s/%s/%s", s.Name, s.Kind, s.Objective, s.Period.Name, s.Threshold)
	}
	svc.SLOs = nil
	return fmt.Sprintf("%+v %q", svc, slos)
}
