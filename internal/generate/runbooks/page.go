package runbooks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// Page is what every template sees: the service's facts as its runbook
// writes them, and in an alert's section, the alert. Numbers are text,
// written the way the rule files write them.
type Page struct {
	Service, Team, Runtime, Model string
	// Advice is what the runbook says of the runtime, from slogen's
	// runtime table.
	Advice Advice
	// DashboardUID is the UID of the service's Grafana dashboard.
	DashboardUID string
	SLOs         []SLO
	Thresholds   model.Thresholds
	Alerting     Alerting
	DCGM         DCGM
	Diagnosis    Diagnosis
	Queries      Queries
	// Alerts are the alerts the service gets, in the order of their
	// sections.
	Alerts []string
	// Alert is the alert whose section is being written; nil in the head.
	Alert *Alert
	// Global is how the service spans clusters; its Label is empty for a
	// service in one Prometheus.
	Global model.Global

	severities map[string]string // of each alert's first rule
}

// SLO is one objective. Objective and Budget are percentages.
type SLO struct {
	Name, Kind, Description string
	Objective, Budget       string
	Period                  string
	Threshold               string // the latency bound; empty for other kinds
	// ErrorRatio is PromQL: the share of failed events over the last hour,
	// as the burn alerts compare it.
	ErrorRatio string
	Tiers      []Tier
	// Rules are its burn-rate alert rules: the page, then the tickets.
	Rules []BurnRule
	// GroupBy is the labels the SLO is split by, comma-separated; empty
	// when it is not. GroupSeries is the recorded series each value adds,
	// and MaxGroups the values SLOTooManyGroups allows.
	GroupBy                string
	GroupSeries, MaxGroups int
	// Traces is the TraceQL query of the traces the Collector kept of
	// its requests over the bound; empty without a collector block.
	Traces string
}

// Tier is one burn-rate tier of an SLO, and the alert (tier label) its
// condition fires, with that alert's severity and `for`.
type Tier struct {
	Name, Alert, Severity, For string
	BurnRate                   string
	Long, Short                string
	// ErrorRatio is the percentage of failed events above which it holds.
	ErrorRatio string
}

// BurnRule is one burn-rate alert rule of an SLO: its tier label and
// expression.
type BurnRule struct {
	Name, Expr string
}

// Alerting are the spec's alert settings the sections name.
type Alerting struct {
	PageSeverity, TicketSeverity string
	NoDataFor, TrafficDropFor    string
	// BudgetWarnRemaining is the percentage of the budget left at which
	// SLOErrorBudgetLow fires.
	BudgetWarnRemaining string
	MinEvents           int
	// PageOn are the cause alerts the spec promotes to pages.
	PageOn []string
	// TrafficDropMinimum is the fewest requests the hour-earlier stretch
	// must have held for SLOTrafficDrop to fire.
	TrafficDropMinimum int
}

// DCGM is where the service's GPU series come from.
type DCGM struct {
	Job, Mapping, Pod, Namespace string
	Hosts                        []string
	HonorLabels                  bool
	// PodLabel and NamespaceLabel are what the pod mapping reads the
	// exporter's pod and namespace labels as: exported_pod and
	// exported_namespace, or without the prefix under honor_labels.
	PodLabel, NamespaceLabel string
}

// Diagnosis holds the factors the diagnosis alerts compare the last hour
// with the same hour a day earlier by, and the leak alert's windows.
type Diagnosis struct {
	Window, Baseline                                        string
	LatencyUp, LatencyNormal, ThroughputLow, ThroughputHigh string
	ErrorsUp, MemoryUp                                      string
	LeakHorizon, LeakTrendWindow, LeakShortWindow           string
	// PrefixCacheHitFloor is the hit ratio, PrefixCacheMinPerMinute the
	// requests a minute, below which yesterday's hour is too thin a
	// baseline for PrefixCacheColdStart.
	PrefixCacheHitFloor, PrefixCacheMinPerMinute string
}

// Queries are PromQL to paste, each empty when the runtime lacks its
// metric.
type Queries struct {
	// Up is whether Prometheus scrapes the runtime; DCGMUp, dcgm-exporter.
	Up, DCGMUp string
	// Requests is the service's request rate.
	Requests string
	// GPUMemory is the share of usable memory in use per GPU, FBUsed the
	// MiB in use, Temperature and Power each GPU's.
	GPUMemory, FBUsed, Temperature, Power string
	// MemoryUsed is the MiB the service's GPUs held over the last hour.
	MemoryUsed string
	// Queue and KVCache are per replica; Preemptions is per second.
	Queue, KVCache, Preemptions string
	// PrefixCache is the prefix cache's hit ratio per replica.
	PrefixCache string
	// Failures is the failed requests per second by class.
	Failures string
	// Allocated and Reserved are the runtime's own GPU memory, in bytes.
	Allocated, Reserved string
	// OOM is the day's count of out-of-memory events.
	OOM string
	// BudgetLeft is the share of each SLO's error budget left.
	BudgetLeft string
	// Groups is the series each value of a split SLO's labels has, by
	// SLO and value; empty when no SLO is split.
	Groups string
}

// Alert is the alert whose section is written.
type Alert struct {
	Name  string
	Rules []Rule // as the rule files have them, in file order
	// Keeps are the labels of its input series the alert fires with: the
	// GPU or replica it is about.
	Keeps []string
}

// For is how long the alert's condition must hold, as its first rule
// says; empty when it fires at once.
func (a Alert) For() string { return a.Rules[0].For }

// Severity is the severity of the alert's first rule.
func (a Alert) Severity() string { return a.Rules[0].Severity }

// HealthWindow is how long a GPU health alert keeps firing after the last
// error it counted.
func (a Alert) HealthWindow() string { return genfile.Duration(gpualerts.HealthWindow) }

// Rule is one rule of an alert.
type Rule struct {
	Expr, For, Severity string
	Labels              map[string]string
}

// Has reports whether the service gets an alert.
func (p Page) Has(alert string) bool { return slices.Contains(p.Alerts, alert) }

// Severity is the severity of the alert's first rule; empty for an alert
// the service does not get.
func (p Page) Severity(alert string) string { return p.severities[alert] }

// Cause reports whether an alert is a GPU or serving alert: a cause,
// which pages only where alerting.page_on names it.
func (p Page) Cause(alert string) bool { return slices.Contains(gpualerts.Causes, alert) }

// Causes are the cause alerts the service gets, in section order.
func (p Page) Causes() []string {
	return slices.DeleteFunc(slices.Clone(p.Alerts), func(a string) bool { return !p.Cause(a) })
}

// Link is a Markdown link to an alert's section, or its name in code when
// the service does not get it.
func (p Page) Link(alert string) string {
	if !p.Has(alert) {
		return "`" + alert + "`"
	}
	return fmt.Sprintf("[%s](#%s)", alert, rules.RunbookAnchor(alert))
}

// newPage gathers what the templates show of a planned service, reading
// its alerts from the rules that the rule files hold.
func newPage(sp *plan.Service) (Page, map[string]*Alert) {
	svc := sp.Svc
	alerts, order := collect(slices.Concat(sp.Local, sp.Global, sharedGroups(sp), sp.GPURules))
	for _, a := range sp.GPU.Alerts {
		alerts[a.Name].Keeps = a.Keeps
	}
	p := Page{
		Service: svc.Name, Team: svc.Team, Runtime: svc.Runtime, Model: svc.Model,
		Advice:       adviceOn(sp.Runtime),
		DashboardUID: sp.DashboardUID,
		Thresholds:   svc.Thresholds,
		Alerting:     alerting(svc),
		DCGM:         dcgmOf(svc.DCGM),
		Diagnosis:    diagnosis(),
		Queries:      queries(svc),
		Alerts:       order,
		severities:   map[string]string{},
	}
	for name, a := range alerts {
		p.severities[name] = a.Severity()
	}
	if svc.Global != nil {
		p.Global = *svc.Global
	}
	var burns []Rule
	if a := alerts[rules.BurnAlert]; a != nil {
		burns = a.Rules
	}
	for _, slo := range svc.SLOs {
		p.SLOs = append(p.SLOs, sloOf(svc, slo, burns))
	}
	return p, alerts
}

// sharedGroups are the alerts the service shares with others of its
// fleet, which watch it as its own would.
func sharedGroups(sp *plan.Service) []rules.Group {
	var groups []rules.Group
	for _, s := range []*rules.Shared{sp.Shared, sp.Serving} {
		if s != nil {
			groups = append(groups, s.Groups...)
		}
	}
	return groups
}

// collect groups the alerting rules by alert, in the order each first
// appears, the burn-rate alert first: a service that spans clusters has
// its global alerts after its local ones.
func collect(groups []rules.Group) (map[string]*Alert, []string) {
	alerts := map[string]*Alert{}
	var order []string
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			a, ok := alerts[r.Alert]
			if !ok {
				a = &Alert{Name: r.Alert}
				alerts[r.Alert] = a
				order = append(order, r.Alert)
			}
			a.Rules = append(a.Rules, Rule{Expr: pql.Print(r.Expr), For: r.For, Severity: r.Labels["severity"], Labels: r.Labels})
		}
	}
	if i := slices.Index(order, rules.BurnAlert); i > 0 {
		order = slices.Insert(slices.Delete(order, i, i+1), 0, rules.BurnAlert)
	}
	return alerts, order
}

// sloOf is an SLO, its burn-rate tiers and its rules among burns.
func sloOf(svc model.Service, slo model.SLO, burns []Rule) SLO {
	s := SLO{
		Name: slo.Name, Kind: string(slo.Kind), Description: slo.Description,
		Objective: rules.Percent(slo.Objective), Budget: rules.Percent(slo.ErrorBudget()),
		Period:     slo.Period.Name,
		ErrorRatio: pql.Print(rules.ErrorRatio(svc, slo, time.Hour)),
	}
	s.Traces, _ = plan.SlowTraces(svc, slo)
	if len(slo.GroupBy) > 0 {
		s.GroupBy, s.GroupSeries, s.MaxGroups = strings.Join(slo.GroupBy, ", "), rules.GroupSeries(svc, slo), slo.MaxGroups
	}
	if slo.Threshold > 0 {
		s.Threshold = slo.Threshold.String() // as a spec writes it: 2.5s, 500ms
	}
	var bounds []string
	for _, b := range slo.Bounds {
		bounds = append(bounds, model.BoundField(b.Kind)+" "+b.Threshold.String())
	}
	if bounds != nil {
		s.Threshold = strings.Join(bounds, " and ")
	}
	for _, t := range model.Tiers {
		w := model.TierWindows[t]
		ratio, _ := slo.ErrorRatioThreshold(t)
		tier := Tier{
			Name: string(t), Alert: model.RuleOf(t).Name, BurnRate: model.FormatRat(t.BurnRate(slo.Period)),
			Long: genfile.Duration(w.Long), Short: genfile.Duration(w.Short), ErrorRatio: rules.Percent(ratio),
		}
		for _, r := range burns {
			if r.Labels["slo"] == slo.Name && r.Labels["tier"] == tier.Alert {
				tier.For, tier.Severity = r.For, r.Severity
			}
		}
		s.Tiers = append(s.Tiers, tier)
	}
	for _, b := range model.BurnRules {
		for _, r := range burns {
			if r.Labels["slo"] == slo.Name && r.Labels["tier"] == b.Name {
				s.Rules = append(s.Rules, BurnRule{Name: b.Name, Expr: r.Expr})
			}
		}
	}
	return s
}

func alerting(svc model.Service) Alerting {
	a := svc.Alerting
	return Alerting{
		PageSeverity: a.PageSeverity, TicketSeverity: a.TicketSeverity,
		NoDataFor: genfile.Duration(a.NoDataFor), TrafficDropFor: genfile.Duration(a.TrafficDropFor),
		BudgetWarnRemaining: rules.SharePercent(a.BudgetWarnRemaining),
		MinEvents:           a.MinEvents,
		TrafficDropMinimum:  rules.TrafficDropMinimum(svc),
		PageOn:              a.PageOn,
	}
}

func dcgmOf(d model.DCGM) DCGM {
	return DCGM{Job: d.Job, Mapping: d.Mapping, Pod: d.Pod, Namespace: d.Namespace, Hosts: d.Hosts,
		HonorLabels: d.HonorLabels, PodLabel: d.PodLabel(), NamespaceLabel: d.NamespaceLabel()}
}

func diagnosis() Diagnosis {
	n := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	return Diagnosis{
		Window: genfile.Duration(gpualerts.DiagnosisWindow), Baseline: genfile.Duration(gpualerts.Baseline),
		LatencyUp: n(gpualerts.LatencyUp), LatencyNormal: n(gpualerts.LatencyNormal),
		ThroughputLow: n(gpualerts.ThroughputLow), ThroughputHigh: n(gpualerts.ThroughputHigh),
		ErrorsUp: n(gpualerts.ErrorsUp), MemoryUp: n(gpualerts.MemoryUp),
		LeakHorizon: genfile.Duration(dcgm.LeakHorizon), LeakTrendWindow: genfile.Duration(dcgm.TrendWindow),
		LeakShortWindow:     genfile.Duration(gpualerts.LeakShortWindow),
		PrefixCacheHitFloor: n(gpualerts.PrefixCacheHitFloor), PrefixCacheMinPerMinute: n(gpualerts.PrefixCacheMinPerMinute),
	}
}
