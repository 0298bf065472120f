package rules

import (
	"slices"
	"strconv"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// Recordings a fleet's services add for the dashboards they share: a
// dashboard drawn for every service of a kind reads which series are a
// service's, and its objectives and thresholds, from them rather than
// from constants of one service.
const (
	// InfoMetric is 1 for each service, labelled with what selects its
	// series (InfoLabels).
	InfoMetric = "slogen:service_info"
	// ThresholdMetric is an SLO's latency threshold in seconds, per
	// bound for a goodput SLO.
	ThresholdMetric = "slogen:slo_threshold:seconds"
)

// Labels of InfoMetric besides the selector's own: dashboard is the UID
// of the dashboard the service is drawn on. The dcgm_ ones hold
// the matchers that pick the service's GPUs among dcgm-exporter's series:
// dcgm_pod (a regular expression) and dcgm_namespace under pod mapping,
// dcgm_hosts (a regular expression of the hosts) under host mapping.
const (
	InfoRuntime       = "runtime"
	InfoDashboard     = "dashboard"
	InfoTeam          = "team"
	InfoModel         = "model"
	InfoDCGMPod       = "dcgm_pod"
	InfoDCGMNamespace = "dcgm_namespace"
	InfoDCGMHosts     = "dcgm_hosts"
)

// BoundLabel names a goodput SLO's bound on its ThresholdMetric series.
const BoundLabel = "bound"

// infoOwn are InfoMetric's labels of slogen's own, which a selector label
// of the same name must not overwrite.
var infoOwn = []string{"service", InfoTeam, InfoRuntime, InfoDashboard, InfoModel, InfoDCGMPod, InfoDCGMNamespace, InfoDCGMHosts}

// InfoSelectorLabel is the InfoMetric label holding the value of the
// selector's label l: l itself, or selector_<l> where slogen's own labels
// have that name.
func InfoSelectorLabel(l string) string {
	if slices.Contains(infoOwn, l) {
		return "selector_" + l
	}
	return l
}

// infoRecording is the service's InfoMetric, labelled with the UID of
// the dashboard it is drawn on.
func infoRecording(svc model.Service, dashboardUID string) Rule {
	info := infoLabels(svc)
	info[InfoDashboard] = dashboardUID
	return Rule{Record: InfoMetric, Expr: pql.Call("vector", pql.Num(1)), Labels: info}
}

// thresholdRecordings are the service's SLOs' ThresholdMetric series.
func thresholdRecordings(svc model.Service) []Rule {
	var rs []Rule
	for _, slo := range svc.SLOs {
		for _, b := range latencyBounds(slo) {
			ls := sloLabels(svc, slo)
			if slo.Kind == model.Goodput {
				ls[BoundLabel] = string(b.Kind)
			}
			rs = append(rs, Rule{Record: ThresholdMetric, Expr: pql.Call("vector", pql.Num(b.Threshold.Seconds())), Labels: ls})
		}
	}
	return rs
}

// latencyBounds are the latency thresholds an SLO holds requests to.
func latencyBounds(slo model.SLO) []model.Bound {
	if slo.Kind == model.Goodput {
		return slo.Bounds
	}
	if slices.Contains(model.LatencyKinds, slo.Kind) {
		return []model.Bound{{Kind: slo.Kind, Threshold: slo.Threshold}}
	}
	return nil
}

func infoLabels(svc model.Service) map[string]string {
	ls := map[string]string{"service": svc.Name, InfoRuntime: svc.Runtime}
	for _, l := range svc.Selector {
		ls[InfoSelectorLabel(l.Name)] = l.Value
	}
	set := func(name, value string) {
		if value != "" {
			ls[name] = value
		}
	}
	set(InfoTeam, svc.Team)
	set(InfoModel, svc.Model)
	for _, m := range svc.DCGM.Matchers {
		switch m.Name {
		case "Hostname":
			set(InfoDCGMHosts, InPromQLString(m.Value))
		case svc.DCGM.PodLabel():
			set(InfoDCGMPod, InPromQLString(m.Value))
		case svc.DCGM.NamespaceLabel():
			set(InfoDCGMNamespace, m.Value)
		}
	}
	return ls
}

// InPromQLString is s escaped to stand between a PromQL string's double
// quotes.
func InPromQLString(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// SplitFleet is Split for a service built in a fleet. Its period group
// (the global ruler's, for a service across clusters) also records its
// SLOs' thresholds at the period group's slow interval, as the objective
// is. A service in one Prometheus leaves its burn-rate and error-budget
// alerts to the ones its fleet shares (ShareAlerts), which find their
// services by the InfoMetric recorded in its SLI group: at the alerts'
// own pace, so that a slow period group cannot silence them. A service
// across clusters records it with its thresholds, and keeps its alerts.
func SplitFleet(svc model.Service, dashboardUID string) (local, global []Group) {
	shares := SharesAlerts(svc)
	local, global = split(svc, !shares)
	info := infoRecording(svc, dashboardUID)
	if len(local) == 0 { // no SLO: the fleet's dashboards still need to know the service
		period := periodGroup(svc)
		period.Rules = append(period.Rules, info)
		return []Group{period}, nil
	}
	groups := local
	if global != nil {
		groups = global
	}
	period := &groups[len(groups)-1]
	if shares {
		local[0].Rules = append(local[0].Rules, info)
	} else {
		period.Rules = append(period.Rules, info)
	}
	period.Rules = append(period.Rules, thresholdRecordings(svc)...)
	return local, global
}
