// Package plan computes, once per service, what more than one output
// reads: the SLO rules with their recording names and windows
// (plan/rules), the GPU and serving alerts (plan/gpualerts) and the
// dashboard's identity. Outputs under generate/ read a plan and never
// each other; budget and backtest read the same plan.
package plan

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/slogen-dev/slogen/internal/memo"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
)

// Service is one service's plan.
type Service struct {
	Svc model.Service
	// Local are the SLO rules every cluster's Prometheus evaluates;
	// Global those of the global ruler, which only a service that spans
	// clusters has.
	Local, Global []rules.Group
	// GPU is what the GPU and serving alerts read, and GPURules the
	// alerts themselves.
	GPU      gpualerts.Plan
	GPURules []rules.Group
	// Runtime is the service's entry in the runtime table, looked up once
	// for the outputs that show what the runtime is and counts (custom's
	// entry carries no metrics: the spec names them).
	Runtime profile.Profile
	// DashboardUID is the Grafana UID of the service's dashboard, which
	// runbooks and alerts link to: in a fleet, its kind's.
	DashboardUID string
	// Kind names, in a fleet, the dashboard the service is drawn on
	// (Kind); empty for a service built alone.
	Kind string
	// Layout is how the build lays out its output: what a service of a
	// fleet shares with the others is written once for the output.
	Layout Layout
	// Shared are, in a fleet, the burn-rate and error-budget alerts the
	// service shares with the services whose alerts are the same; nil
	// for a service built alone, across clusters, or without SLOs, which
	// keeps its own in Local or Global.
	Shared *rules.Shared
	// Serving are, likewise, the serving alerts that read only
	// recordings, which a service of a fleet in one Prometheus shares
	// (SharesServingAlerts) and leaves out of GPURules; nil otherwise.
	Serving *rules.Shared
}

// Layout is how a build lays out its output.
type Layout int

const (
	// Alone is one service built alone: every output in its directory.
	Alone Layout = iota
	// Fleet is a service built with others: its directory holds only what
	// is its own (its rule files, its scrape job, and its tests when no
	// other service's rules share its template); dashboards, runbooks and
	// the alerts about GPUs rather than services are written once for the
	// output.
	Fleet
)

// LayoutOf is the layout of a build of n services.
func LayoutOf(n int) Layout {
	if n > 1 {
		return Fleet
	}
	return Alone
}

// New plans one validated service, built alone.
func New(svc model.Service) *Service { return NewIn(svc, Alone) }

// NewIn plans one validated service for a build laid out as l.
func NewIn(svc model.Service, l Layout) *Service {
	newGPU := gpualerts.NewPlan
	if l == Fleet {
		newGPU = gpualerts.NewFleetPlan // the alerts about GPUs are the pools'
	}
	gpu := newGPU(svc)
	gpu.SharesRecorded = SharesServingAlerts(svc, l)
	rt, _ := profile.For(svc.Runtime, svc.Version) // the loader checked both
	p := &Service{
		Svc: svc, GPU: gpu, GPURules: gpualerts.Build(gpu),
		Runtime: rt, DashboardUID: DashboardUID(svc.Name), Layout: l,
	}
	if l == Fleet {
		p.Kind = Kind(svc)
		p.DashboardUID = DashboardUID(p.Kind)
		p.Local, p.Global = rules.SplitFleet(svc, p.DashboardUID)
	} else {
		p.Local, p.Global = rules.Split(svc)
	}
	if svc.Alerting.GrafanaURL != "" {
		linkDashboard(p)
		linkTraces(p)
	}
	if l == Fleet {
		rules.LinkFleetRunbook(svc, p.Local, p.Global, p.GPURules)
		key, keyed := sharedAlertsKey(p)
		if SharesAlerts(svc, l) {
			shareAlerts(p, key, keyed)
		}
		if gpu.SharesRecorded {
			shareServingAlerts(p, key, keyed)
		}
	}
	return p
}

// SharesServingAlerts says whether the service, built as l lays out,
// shares its serving alerts that read only recordings: in a fleet, when
// one Prometheus records what they read, its objective included.
func SharesServingAlerts(svc model.Service, l Layout) bool {
	return l == Fleet && svc.Global == nil
}

// WritesServingAlerts says whether the service, built as l lays out, has
// serving alerts in the fleet's shared file: it shares them, and has
// alerts that read only recordings.
func WritesServingAlerts(svc model.Service, l Layout) bool {
	return SharesServingAlerts(svc, l) && len(recordedAlerts(svc)) > 0
}

// recordedAlerts are the service's serving alerts that read only
// recordings, built for any service.
func recordedAlerts(svc model.Service) []rules.Rule {
	svc.Name = rules.SharedName
	return gpualerts.NewFleetPlan(svc).Recorded()
}

// SharesAlerts says whether the service, built as l lays out, shares its
// burn-rate and error-budget alerts: in a fleet, when it has SLOs and one
// Prometheus evaluates them.
func SharesAlerts(svc model.Service, l Layout) bool {
	return l == Fleet && rules.SharesAlerts(svc)
}

// shareAlerts gives the service of a fleet the SLO alerts it shares.
func shareAlerts(p *Service, key string, keyed bool) {
	s := sharedOnce(&sharedSLOAlerts, p, key, keyed, buildSLOAlerts)
	s.Watch(p.Local)
	p.Shared = s
}

// sharedOnce are the alerts build makes for the service, built once per
// key (sharedAlertsKey, if keyed); a service without a key builds its own.
func sharedOnce(built *memo.Memo[string, *rules.Shared], p *Service, key string, keyed bool, build func(*Service) *rules.Shared) *rules.Shared {
	if !keyed {
		return build(p)
	}
	return built.Get(key, func(string) *rules.Shared { return build(p) })
}

// buildSLOAlerts builds the SLO alerts the service shares, linked and
// named.
func buildSLOAlerts(p *Service) *rules.Shared {
	s := rules.SharedAlerts(p.Svc)
	share(p, s, s.Groups, nil)
	return s
}

// shareServingAlerts gives the service of a fleet the serving alerts it
// shares: those that read only recordings, built for any service.
func shareServingAlerts(p *Service, key string, keyed bool) {
	s := sharedOnce(&sharedServingAlerts, p, key, keyed, buildServingAlerts)
	if s == nil {
		return
	}
	s.Watch(p.Local)
	p.Serving = s
}

// buildServingAlerts builds the serving alerts the service shares, linked
// and named; nil when it has none.
func buildServingAlerts(p *Service) *rules.Shared {
	recorded := recordedAlerts(p.Svc)
	if len(recorded) == 0 {
		return nil
	}
	s := rules.ShareWhole(rules.ServingLabel, recorded)
	share(p, s, nil, s.Groups)
	return s
}

// share links the shared alerts, built for rules.SharedName, as the
// service's own would be (local SLO alerts, or GPU and serving alerts),
// and makes them any service's.
func share(p *Service, s *rules.Shared, local, gpu []rules.Group) {
	shared := *p
	shared.Svc.Name = rules.SharedName
	shared.Local, shared.Global, shared.GPURules = local, nil, gpu
	if p.Svc.Alerting.GrafanaURL != "" {
		linkDashboard(&shared)
		linkTraces(&shared)
	}
	rules.LinkFleetRunbook(shared.Svc, s.Groups)
	s.Share(p.Svc.Team != "")
}

// maxUID is the longest UID Grafana accepts.
const maxUID = 40

// DashboardUID derives a dashboard UID from a service name: readable when
// it fits Grafana's 40 characters, else cut and suffixed with a hash of
// the name so that it stays unique.
func DashboardUID(service string) string {
	uid := "slogen-" + service
	if len(uid) <= maxUID {
		return uid
	}
	sum := sha256.Sum256([]byte(service))
	return uid[:maxUID-9] + "-" + hex.EncodeToString(sum[:4])
}
