package gpualerts

import (
	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/model"
)

// GroupName is the rule group of a service's GPU and serving rules.
func GroupName(svc model.Service) string { return "slogen-" + svc.Name + "-gpu" }

// Build returns the service's GPU and serving rule group: recordings
// first, so the alerts read values of the same evaluation.
func Build(svc model.Service) []rules.Group {
	defs, _ := definitions(svc)
	q := readQuadrants(svc)
	g := rules.Group{Name: GroupName(svc)}
	g.Rules = append(g.Rules, memoryRatio(svc))
	g.Rules = append(g.Rules, q.recordings(svc)...)
	for _, d := range defs {
		g.Rules = append(g.Rules, d.rule(svc))
	}
	return []rules.Group{g}
}

// Skipped lists the alerts the service does not get and why, for vet.
func Skipped(svc model.Service) []Skip {
	_, skips := definitions(svc)
	return skips
}

// definitions are the service's alerts in file order, and the ones it
// cannot have.
func definitions(svc model.Service) ([]alertDef, []Skip) {
	q := readQuadrants(svc)
	var defs []alertDef
	var skips []Skip
	for _, build := range []func(model.Service) (alertDef, *Skip){
		memoryHigh, kvCacheHigh, queueBacklog, temperatureHigh, utilizationHigh, xidErrors, oomEvents, exporterDown,
		q.memoryLeak, q.saturated, q.inputErrors, q.leakSuspected,
	} {
		if d, skip := build(svc); skip != nil {
			skips = append(skips, *skip)
		} else {
			defs = append(defs, d)
		}
	}
	return defs, skips
}

// Describe lists the service's GPU and serving alerts, one line each:
// name, condition and how long it must hold.
func Describe(svc model.Service) []string {
	defs, _ := definitions(svc)
	out := make([]string, len(defs))
	for i, d := range defs {
		hold := ""
		if d.hold > 0 {
			hold = " (for " + forField(d.hold) + ")"
		}
		out[i] = d.name + hold + ": " + d.summary
	}
	return out
}
