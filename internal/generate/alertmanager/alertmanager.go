// Package alertmanager writes alertmanager.yaml, an Alertmanager config
// fragment for slogen's alerts: routes by team, then severity, to the
// receivers each spec names; grouping by service and SLO, and a vanished
// exporter's SLOMetricsAbsent by service alone, so that one incident is
// one notification; and the inhibitions the alerts need. It is
// written from slogen's own types; tests load it strictly with
// Alertmanager's config package, which stays out of the binary (it pulls
// in the AWS SDK), and with amtool.
package alertmanager

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// File is the fragment's path under the output directory.
const File = "alertmanager.yaml"

// Unrouted is the root route's receiver: slogen's alerts all match a
// route below it, so it receives only alerts with a severity no spec
// gave. It has no integration: merged into a real config, the routes go
// under its tree and this receiver is left out.
const Unrouted = "slogen-unrouted"

// GroupBy groups notifications: the alerts of one SLO of one service, in
// every tier, make one notification. Where group_by splits SLOs, their
// labels group too: a second model burning is a new incident, not an
// update to an acknowledged one.
var GroupBy = []string{"service", "slo"}

// AbsentGroupBy groups SLOMetricsAbsent by service alone: an exporter or
// scrape job that vanishes takes every SLO's series with it at once, and
// one SLOMetricsAbsent per SLO would page once per SLO in the same second.
var AbsentGroupBy = []string{"service"}

// Config is the subset of Alertmanager's configuration slogen writes.
type Config struct {
	Route        Route         `yaml:"route"`
	InhibitRules []InhibitRule `yaml:"inhibit_rules"`
	Receivers    []Receiver    `yaml:"receivers"`
}

// Route is a routing tree node.
type Route struct {
	Matchers []string `yaml:"matchers,omitempty"`
	Receiver string   `yaml:"receiver,omitempty"`
	GroupBy  []string `yaml:"group_by,omitempty"`
	Routes   []Route  `yaml:"routes,omitempty"`
}

// InhibitRule mutes the alerts matching TargetMatchers while one matching
// SourceMatchers fires with the same Equal labels.
type InhibitRule struct {
	SourceMatchers []string `yaml:"source_matchers"`
	TargetMatchers []string `yaml:"target_matchers"`
	Equal          []string `yaml:"equal"`
}

// Receiver is a receiver without integrations: a name for the user's
// config to fill in.
type Receiver struct {
	Name string `yaml:"name"`
}

// Build writes the fragment for every service of a build; nil when there
// are none.
func Build(svcs []model.Service) ([]byte, error) {
	if len(svcs) == 0 {
		return nil, nil
	}
	return genfile.MarshalYAML(config(svcs))
}

func config(svcs []model.Service) Config {
	return Config{
		Route:        Route{Receiver: Unrouted, GroupBy: append(slices.Clip(GroupBy), groupLabels(svcs)...), Routes: append(unclaimedGPURoutes(svcs), teamRoutes(svcs)...)},
		InhibitRules: inhibitRules(svcs),
		Receivers:    receivers(svcs),
	}
}

// teamRoutes route each team's alerts by severity to its services'
// receivers. Services of one team that send a severity to different
// receivers get a route each for it.
func teamRoutes(svcs []model.Service) []Route {
	byTeam := map[string][]model.Service{}
	for _, svc := range svcs {
		byTeam[team(svc)] = append(byTeam[team(svc)], svc)
	}
	var out []Route
	for _, t := range slices.Sorted(maps.Keys(byTeam)) {
		out = append(out, Route{Matchers: []string{eq("team", t)}, Routes: severityRoutes(byTeam[t])})
	}
	return out
}

// unclaimedGPURoutes route, in a fleet, the alerts about GPUs that name
// no service (a GPU no service claims, a dcgm-exporter job down), which
// no team's route would take: by severity, to the receiver the first
// service with that severity sends it to.
func unclaimedGPURoutes(svcs []model.Service) []Route {
	if plan.LayoutOf(len(svcs)) != plan.Fleet {
		return nil
	}
	to := map[string]string{}
	for _, svc := range svcs {
		a := svc.Alerting
		if _, ok := to[a.PageSeverity]; !ok {
			to[a.PageSeverity] = a.PageReceiver
		}
		if _, ok := to[a.TicketSeverity]; !ok {
			to[a.TicketSeverity] = a.TicketReceiver
		}
	}
	var bySeverity []Route
	for _, sev := range slices.Sorted(maps.Keys(to)) {
		bySeverity = append(bySeverity, Route{Matchers: []string{eq("severity", sev)}, Receiver: to[sev]})
	}
	return []Route{{Matchers: []string{oneOf("alertname", gpualerts.GPUScoped), eq("service", "")}, Routes: bySeverity}}
}

// team is the team label slogen puts on a service's alerts; "" matches
// alerts without one.
func team(svc model.Service) string {
	for _, l := range svc.Alerting.Labels {
		if l.Name == "team" {
			return l.Value
		}
	}
	return ""
}

func severityRoutes(svcs []model.Service) []Route {
	// receivers by severity, then the services that send it there: each
	// service once, as names are unique and a service adds a severity once
	to := map[string]map[string][]string{}
	add := func(severity, receiver, service string) {
		if to[severity] == nil {
			to[severity] = map[string][]string{}
		}
		to[severity][receiver] = append(to[severity][receiver], service)
	}
	for _, svc := range svcs {
		a := svc.Alerting
		add(a.PageSeverity, a.PageReceiver, svc.Name)
		if a.TicketSeverity != a.PageSeverity { // one severity cannot go two ways: pages win
			add(a.TicketSeverity, a.TicketReceiver, svc.Name)
		}
	}
	var out []Route
	for _, sev := range slices.Sorted(maps.Keys(to)) {
		recv := to[sev]
		if len(recv) == 1 {
			for r := range recv {
				out = append(out, Route{Matchers: []string{eq("severity", sev)}, Receiver: r, Routes: absentRoute(svcs, sev)})
			}
			continue
		}
		for _, r := range slices.Sorted(maps.Keys(recv)) {
			out = append(out, Route{Matchers: []string{eq("severity", sev), oneOf("service", recv[r])}, Receiver: r, Routes: absentRoute(svcs, sev)})
		}
	}
	return out
}

// absentRoute is the child of a page severity's route that groups
// SLOMetricsAbsent by AbsentGroupBy, to the same receiver; nil for a
// severity no service pages with, as SLOMetricsAbsent is a page.
func absentRoute(svcs []model.Service, severity string) []Route {
	if !slices.ContainsFunc(svcs, func(s model.Service) bool { return s.Alerting.PageSeverity == severity }) {
		return nil
	}
	return []Route{{Matchers: []string{eq("alertname", rules.NoDataAlert)}, GroupBy: slices.Clone(AbsentGroupBy)}}
}

func receivers(svcs []model.Service) []Receiver {
	names := []string{Unrouted}
	for _, svc := range svcs {
		names = append(names, svc.Alerting.PageReceiver, svc.Alerting.TicketReceiver)
	}
	slices.Sort(names)
	var out []Receiver
	for _, n := range slices.Compact(names) {
		out = append(out, Receiver{Name: n})
	}
	return out
}

// inhibitRules are the inhibitions slogen's alerts need:
//   - a page about an SLO (its burn-rate page or its series gone)
//     mutes the tickets about the same SLO of the same service: the
//     page already says it, louder;
//     Where group_by splits SLOs, a burn-rate page mutes only the tickets
//     of its own value (an alert without the label has it empty), while
//     SLOMetricsAbsent, about the SLO's series as a whole, mutes all;
//   - SLOMetricsAbsent mutes the burn-rate alerts of the same SLO, which
//     cannot be trusted without its series; another SLO whose series are
//     there still pages;
//   - GPUExporterDown mutes the service's alerts that read
//     dcgm-exporter's series;
//   - a gateway's burn-rate page mutes those of the engine services
//     behind it (behindMutes).
func inhibitRules(svcs []model.Service) []InhibitRule {
	groups := groupLabels(svcs)
	// Where services span clusters, an alert from one cluster's Prometheus
	// carries its cluster, a global alert none: a cluster's SLOMetricsAbsent
	// or GPUExporterDown must not mute what another cluster or the global
	// ruler says.
	clusters := globalLabels(svcs)
	sloEqual := append([]string{"service", "slo"}, clusters...)
	var out []InhibitRule
	seen := map[[2]string]bool{}
	for _, svc := range svcs {
		a := svc.Alerting
		pair := [2]string{a.PageSeverity, a.TicketSeverity}
		if pair[0] == pair[1] || seen[pair] {
			continue
		}
		seen[pair] = true
		tickets := []string{oneOf("alertname", []string{rules.BurnAlert, rules.BudgetLowAlert, rules.BudgetGoneAlert}), eq("severity", a.TicketSeverity)}
		if len(groups) == 0 {
			out = append(out, InhibitRule{
				SourceMatchers: []string{oneOf("alertname", []string{rules.BurnAlert, rules.NoDataAlert}), eq("severity", a.PageSeverity)},
				TargetMatchers: tickets,
				Equal:          sloEqual,
			})
			continue
		}
		out = append(out, InhibitRule{
			SourceMatchers: []string{eq("alertname", rules.BurnAlert), eq("severity", a.PageSeverity)},
			TargetMatchers: tickets,
			Equal:          append(slices.Clone(sloEqual), groups...),
		}, InhibitRule{
			SourceMatchers: []string{eq("alertname", rules.NoDataAlert), eq("severity", a.PageSeverity)},
			TargetMatchers: tickets,
			Equal:          sloEqual,
		})
	}
	slices.SortFunc(out, func(x, y InhibitRule) int {
		return cmp.Compare(strings.Join(x.SourceMatchers, ","), strings.Join(y.SourceMatchers, ","))
	})
	out = append(out, InhibitRule{
		SourceMatchers: []string{eq("alertname", rules.NoDataAlert)},
		TargetMatchers: []string{eq("alertname", rules.BurnAlert)},
		Equal:          sloEqual,
	})
	out = append(append(out, exporterDownMutes(svcs, clusters)...), behindMutes(svcs, clusters)...)
	return append(out, deadEngineMutes(svcs, clusters)...)
}

// deadEngineMutes: while a pod's engine is dead, the alerts on the lines
// it logged as it died (gpualerts.DeadEngineMutes) wait, so that one dead
// engine is one notification. Written only where a service gets the dead
// engine's alert.
func deadEngineMutes(svcs []model.Service, clusters []string) []InhibitRule {
	var out []InhibitRule
	for _, dead := range slices.Sorted(maps.Keys(gpualerts.DeadEngineMutes)) {
		if !slices.ContainsFunc(svcs, func(s model.Service) bool { return gpualerts.HasLogAlert(s, dead) }) {
			continue
		}
		out = append(out, InhibitRule{
			SourceMatchers: []string{eq("alertname", dead)},
			TargetMatchers: []string{oneOf("alertname", gpualerts.DeadEngineMutes[dead])},
			Equal:          append(append([]string{"service"}, gpualerts.LogIdentity...), clusters...),
		})
	}
	return out
}

// behindMutes: while a gateway's SLO pages, the SLO pages of the engine
// services behind it are muted. Engines failing fail the gateway's
// users too: one incident, paged once, from the gateway, whose burn is
// what users see. An engine's tickets, and its pages while the gateway
// is fine (one replica of many failing), still come.
func behindMutes(svcs []model.Service, clusters []string) []InhibitRule {
	behind := map[string][]model.Service{}
	for _, svc := range svcs {
		if svc.Behind != "" {
			behind[svc.Behind] = append(behind[svc.Behind], svc)
		}
	}
	var out []InhibitRule
	for _, gw := range svcs {
		bySeverity := map[string][]string{}
		for _, e := range behind[gw.Name] {
			bySeverity[e.Alerting.PageSeverity] = append(bySeverity[e.Alerting.PageSeverity], e.Name)
		}
		for _, sev := range slices.Sorted(maps.Keys(bySeverity)) {
			out = append(out, InhibitRule{
				SourceMatchers: []string{eq("alertname", rules.BurnAlert), eq("severity", gw.Alerting.PageSeverity), eq("service", gw.Name)},
				TargetMatchers: []string{eq("alertname", rules.BurnAlert), eq("severity", sev), oneOf("service", bySeverity[sev])},
				Equal:          slices.Clone(clusters),
			})
		}
	}
	return out
}

// exporterDownMutes are GPUExporterDown's inhibitions: built alone, a
// service's mutes its alerts that read dcgm-exporter. In a fleet, the
// pool's, about a dcgm-exporter job and carrying no service, mutes the
// pools' alerts about the job's GPUs and the GPUExporterDown of each
// service on the job, which carries the job too; a service's own, which
// fires when its mapping finds none of the job's GPUs, mutes its alerts
// that read them.
func exporterDownMutes(svcs []model.Service, clusters []string) []InhibitRule {
	serviceMutes := InhibitRule{
		SourceMatchers: []string{eq("alertname", gpualerts.ExporterDown)},
		TargetMatchers: []string{oneOf("alertname", gpualerts.DCGMAlerts)},
		Equal:          append([]string{"service"}, clusters...),
	}
	if plan.LayoutOf(len(svcs)) != plan.Fleet {
		return []InhibitRule{serviceMutes}
	}
	ofJob := []string{eq("alertname", gpualerts.ExporterDown), eq("service", "")}
	serviceMutes.SourceMatchers = append(serviceMutes.SourceMatchers, neq("service", ""))
	serviceMutes.TargetMatchers = []string{oneOf("alertname", serviceDCGMAlerts())}
	return []InhibitRule{
		{SourceMatchers: ofJob, TargetMatchers: []string{oneOf("alertname", poolDCGMAlerts())}, Equal: append([]string{"job"}, clusters...)},
		{SourceMatchers: ofJob, TargetMatchers: []string{eq("alertname", gpualerts.ExporterDown), neq("service", "")}, Equal: append([]string{"job"}, clusters...)},
		serviceMutes,
	}
}

// serviceDCGMAlerts are the alerts about a service that read
// dcgm-exporter.
func serviceDCGMAlerts() []string {
	var out []string
	for _, a := range gpualerts.DCGMAlerts {
		if !slices.Contains(gpualerts.GPUScoped, a) {
			out = append(out, a)
		}
	}
	return out
}

// poolDCGMAlerts are the alerts about GPUs that read dcgm-exporter.
func poolDCGMAlerts() []string {
	var out []string
	for _, a := range gpualerts.DCGMAlerts {
		if slices.Contains(gpualerts.GPUScoped, a) {
			out = append(out, a)
		}
	}
	return out
}

// eq is an equality matcher in Alertmanager's notation.
func eq(name, value string) string { return name + "=" + quote(value) }

// neq is a negative equality matcher in Alertmanager's notation.
func neq(name, value string) string { return name + "!=" + quote(value) }

// oneOf matches any of the values, which are label values and alert
// names and are quoted for a regular expression.
func oneOf(name string, values []string) string {
	if len(values) == 1 {
		return eq(name, values[0])
	}
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = regexp.QuoteMeta(v)
	}
	return name + "=~" + quote(strings.Join(quoted, "|"))
}

// quote writes a matcher value as Alertmanager parses it: in double
// quotes, with backslash, double quote and newline escaped.
func quote(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(v) + `"`
}

// groupLabels are every group_by label of the services' SLOs, sorted.
func groupLabels(svcs []model.Service) []string {
	var out []string
	for _, svc := range svcs {
		out = append(out, svc.GroupLabels()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// globalLabels are the external labels that tell the clusters of the
// services that span clusters apart, sorted.
func globalLabels(svcs []model.Service) []string {
	var out []string
	for _, svc := range svcs {
		if svc.Global != nil {
			out = append(out, svc.Global.Label)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
