package gpualerts

import (
	"maps"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// GroupName is the rule group of a service's GPU and serving rules.
func GroupName(svc model.Service) string { return "slogen-" + svc.Name + "-gpu" }

// Plan is a service's GPU and serving alerts, worked out once for its rule
// file, its generated tests and vet: the alerts it gets in file order, the
// ones it cannot have and why, and what the diagnosis reads of its errors.
// Everything exported is a plain fact; the expressions stay inside.
type Plan struct {
	Service model.Service
	Alerts  []Alert
	Skipped []Skip
	// Claim labels the service's claim on its GPUs (ServiceClaims) in a
	// fleet, whose pools alert about the GPUs; nil for a service built
	// alone, which has those alerts itself.
	Claim map[string]string
	// SharesRecorded leaves out of Build the alerts that read only
	// recordings (Recorded): a copy the service's fleet shares watches it.
	SharesRecorded bool

	q     quadrants
	rules []rules.Rule // Alerts' rules, in the same order
}

// NewPlan works out the alerts of a service built alone.
func NewPlan(svc model.Service) Plan { return newPlan(svc, nil) }

// NewFleetPlan works out the alerts of a service of a fleet: those about
// the service; its pool alerts about its GPUs (Pools), which its claim
// names it on.
func NewFleetPlan(svc model.Service) Plan { return newPlan(svc, ClaimLabels(svc)) }

func newPlan(svc model.Service, claim map[string]string) Plan {
	p := Plan{Service: svc, Claim: claim, q: readQuadrants(svc)}
	for _, e := range catalog {
		if claim != nil && e.about == ofGPU && e.name != ExporterDown {
			continue // its pool alerts about its GPUs
		}
		if d, skip := e.write.service(p.q, svc); skip != nil {
			if slices.Contains(svc.Alerting.PageOn, skip.Alert) {
				skip.Reason += "; alerting.page_on names it to no effect"
			}
			p.Skipped = append(p.Skipped, *skip)
		} else {
			a := d.alert(e, svc)
			if claim != nil && e.name == ExporterDown {
				a.Labels = exporterJob(a.Labels, svc)
			}
			p.Alerts = append(p.Alerts, a)
			p.rules = append(p.rules, d.rule(a))
		}
	}
	return p
}

// exporterJob labels a fleet service's own GPUExporterDown with its
// dcgm-exporter job. The service keeps that alert in a fleet: its pool's,
// about the whole job, cannot tell that the service's mapping matches
// none of the job's GPUs, which leaves its alerts that read them blind.
// With the job, Alertmanager mutes it while the pool's says the exporter
// itself is down, so that an exporter's outage is one notification.
func exporterJob(labels map[string]string, svc model.Service) map[string]string {
	ls := maps.Clone(labels)
	ls["job"] = svc.DCGM.Job
	return ls
}

// Build returns the service's GPU and serving rule group: recordings
// first, so the alerts read values of the same evaluation.
func Build(p Plan) []rules.Group {
	svc := p.Service
	g := rules.Group{Name: GroupName(svc)}
	g.Rules = append(g.Rules, memoryRatio(svc))
	if p.Claim != nil {
		g.Rules = append(g.Rules, claim(svc, p.Claim))
	}
	g.Rules = append(g.Rules, p.q.recordings(svc)...)
	for _, r := range p.rules {
		if !p.SharesRecorded || !readsOnlyRecordings(r) {
			g.Rules = append(g.Rules, r)
		}
	}
	return []rules.Group{g}
}

// Recorded are the alerts' rules that read only recorded series, this
// package's or the SLO rules': built for rules.SharedName, they watch
// every service at once (rules.ShareWhole).
func (p Plan) Recorded() []rules.Rule {
	var rs []rules.Rule
	for _, r := range p.rules {
		if readsOnlyRecordings(r) {
			rs = append(rs, r)
		}
	}
	return rs
}

func readsOnlyRecordings(r rules.Rule) bool {
	for _, v := range pql.Selectors(r.Expr) {
		if !strings.HasPrefix(v.Name, rules.RecordedPrefix) {
			return false
		}
	}
	return true
}

// Describe lists the service's GPU and serving alerts, one line each:
// name, how long its condition must hold, whether alerting.page_on made
// it a page, and the condition.
func (p Plan) Describe() []string {
	out := make([]string, len(p.Alerts))
	for i, a := range p.Alerts {
		var notes []string
		if a.For > 0 {
			notes = append(notes, "for "+forField(a.For))
		}
		if slices.Contains(p.Service.Alerting.PageOn, a.Name) {
			notes = append(notes, "pages")
		}
		out[i] = a.Name
		if len(notes) > 0 {
			out[i] += " (" + strings.Join(notes, ", ") + ")"
		}
		out[i] += ": " + a.Summary
	}
	return out
}

// ReadsObjective says whether the alerts read an SLO's recorded objective
// (errorBudget): whatever evaluates or tests them must load the SLO rule
// file that records it.
func (p Plan) ReadsObjective() bool {
	for _, r := range p.rules {
		for _, v := range pql.Selectors(r.Expr) {
			if v.Name == rules.ObjectiveMetric {
				return true
			}
		}
	}
	return false
}
