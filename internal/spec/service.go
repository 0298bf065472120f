package spec

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// reservedLabels are set by slogen on every alert; a spec cannot override them.
var reservedLabels = []string{"alertname", "service", "slo", "severity", "long_window", "short_window", "tier"}

func (r *resolver) service(name string, raw rawService) model.Service {
	r.checkName(serviceNameRe, name, "service", nil)
	svc := model.Service{
		Name:     name,
		File:     r.file.src.Name,
		Team:     raw.Team,
		Runtime:  raw.Runtime,
		Version:  raw.Version,
		Model:    raw.Model,
		Selector: r.labelSet(raw.Selector, fields("selector"), nil),
		Alerting: r.alerting(raw.Alerting),
	}
	svc.Thresholds = raw.Thresholds
	svc.Thresholds.VRAMPercent = vramPercent(raw.Runtime, raw.Thresholds)
	r.warnBroadSelector(name, raw)
	r.warnPreallocation(raw.Runtime, svc.Thresholds)
	svc.DCGM = r.dcgm(name, raw)
	if raw.Team != "" {
		svc.Alerting.Labels = mergeLabel(svc.Alerting.Labels, "team", raw.Team)
	}
	for _, l := range svc.Alerting.Labels {
		r.alertLabels = append(r.alertLabels, l.Name)
	}
	svc.GPU = r.gpu(raw.GPU)
	prof, ok := r.profile(raw)
	if !ok {
		return svc
	}
	svc.Metrics = prof.Metrics()
	if prof.Gateway && svc.DCGM.Mapping != model.MappingHost && raw.DCGM.Pod == "" {
		r.errorf(fields("dcgm"), "runtime %s is a gateway: its pods run no GPU, so its GPUs are its pool's engines': set dcgm.pod to a regular expression of the engine pods, e.g. dcgm: pod: \"vllm-llama-.*\"", raw.Runtime)
	}
	if prof.Note != "" {
		r.notef(fields("runtime"), "%s", prof.Note)
	}
	scope := profile.Scope{Selector: svc.Selector, ModelLabel: prof.ModelLabel, ModelCase: prof.ModelCase, Model: raw.Model}
	if prof.Availability != nil {
		traffic := prof.AvailabilitySLI(scope)
		svc.Traffic = &traffic
	}
	svc.Scrape = r.scrape(svc, raw)
	svc.Operator = r.operator(raw)
	svc.Global = r.global(raw)
	svc.OwnDashboard = raw.Dashboard.PerService
	svc.Behind = raw.Behind
	if len(raw.SLOs) == 0 && prof.ServesAnyKind() {
		r.errorf(fields("slos"), "declare at least one SLO, e.g. slos: availability: objective: 99.5")
	}
	for _, sloName := range slices.Sorted(maps.Keys(raw.SLOs)) {
		if slo, ok := r.slo(sloName, raw.SLOs[sloName], prof, scope); ok {
			svc.SLOs = append(svc.SLOs, slo)
		}
	}
	svc.Collector = r.collector(svc, raw, prof)
	svc.Loki = r.loki(svc, raw)
	return svc
}

// labelSet checks label names and returns the set sorted by name.
func (r *resolver) labelSet(m map[string]string, prefix []string, reserved []string) []labels.Label {
	var out []labels.Label
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch {
		case !promcompat.LegacyLabelName(k):
			r.errorf(append(slices.Clone(prefix), k), "%q is not a valid Prometheus label name: use letters, digits and underscores, not starting with a digit", k)
		case slices.Contains(reserved, k):
			r.errorf(append(slices.Clone(prefix), k), "label %q is set by slogen on every alert; choose another name", k)
		default:
			out = append(out, labels.Label{Name: k, Value: m[k]})
		}
	}
	return out
}

func mergeLabel(ls []labels.Label, name, value string) []labels.Label {
	for _, l := range ls {
		if l.Name == name {
			return ls
		}
	}
	ls = append(ls, labels.Label{Name: name, Value: value})
	slices.SortFunc(ls, func(a, b labels.Label) int { return cmp.Compare(a.Name, b.Name) })
	return ls
}

func (r *resolver) alerting(raw rawAlerting) model.Alerting {
	a := model.Alerting{
		Labels:         r.labelSet(raw.Labels, fields("alerting", "labels"), reservedLabels),
		PageSeverity:   raw.PageSeverity,
		TicketSeverity: raw.TicketSeverity,
		RunbookURL:     raw.RunbookURL,
		RunbookBaseURL: raw.RunbookBaseURL,
		GrafanaURL:     r.grafanaURL(raw.GrafanaURL),
		PageReceiver:   raw.Receivers.Page,
		TicketReceiver: raw.Receivers.Ticket,
		MinEvents:      raw.MinEvents,
		For:            map[model.Tier]time.Duration{},
	}
	for _, k := range slices.Sorted(maps.Keys(raw.For)) {
		d, err := promodel.ParseDuration(raw.For[k])
		if err != nil {
			r.errorf(fields("alerting", "for", k), "%v; write a Prometheus duration such as 2m or 1h30m", err)
			continue
		}
		switch t := model.Tier(k); {
		case k == "no_data":
			a.NoDataFor = time.Duration(d)
		case t.IsPage() && d > 0:
			r.warnf(fields("alerting", "for", k), "the page, one alert for both page tiers, is held by the longer of their `for`s: held, it can start paging after the errors stopped, while a short window still burns, and only pages later otherwise: write 0s, as the default does")
			fallthrough
		default:
			a.For[t] = time.Duration(d)
		}
	}
	if raw.RunbookURL != "" && raw.RunbookBaseURL != "" {
		r.errorf(fields("alerting", "runbook_base_url"), "set runbook_base_url (each alert links to its section of the service's runbook.md) or runbook_url (every alert links to one page), not both: remove one")
	}
	r.trafficDrop(raw, &a)
	a.BudgetSeverity = severities(a)[raw.Budget]
	a.BudgetWarnRemaining = raw.BudgetWarn
	a.PageOn = r.pageOn(raw.PageOn)
	return a
}

// severities maps a spec's "page" and "ticket" to the severities they
// stand for; "off" maps to nothing.
func severities(a model.Alerting) map[string]string {
	return map[string]string{"page": a.PageSeverity, "ticket": a.TicketSeverity}
}

// trafficDrop resolves SLOTrafficDrop's settings. Its window is compared
// with the same window an hour earlier, so it must fit in that hour.
func (r *resolver) trafficDrop(raw rawAlerting, a *model.Alerting) {
	a.TrafficDropSeverity = severities(*a)[raw.TrafficDrop]
	d, err := promodel.ParseDuration(raw.TrafficDropFor)
	switch {
	case err != nil:
		r.errorf(fields("alerting", "traffic_drop_for"), "%v; write a Prometheus duration such as 10m", err)
	case time.Duration(d) < time.Minute || time.Duration(d) > time.Hour:
		r.errorf(fields("alerting", "traffic_drop_for"), "%s is outside 1m to 1h: traffic is compared with the same stretch an hour earlier; write 10m, or traffic_drop: \"off\"", raw.TrafficDropFor)
	default:
		a.TrafficDropFor = time.Duration(d)
	}
}

// defaultPod matches the pods of a service named name, as a Deployment
// or StatefulSet of that name names them.
func defaultPod(name string) string { return regexp.QuoteMeta(name) + "-.*" }

// dcgm resolves how the service's GPU series are found. Pod mapping
// defaults to pods named after the service in the selector's namespace.
func (r *resolver) dcgm(name string, raw rawService) model.DCGM {
	d := model.DCGM{Job: raw.DCGM.Job, Mapping: raw.DCGM.Mapping, Pod: raw.DCGM.Pod, Hosts: raw.DCGM.Hosts,
		HonorLabels: raw.DCGM.HonorLabels, Namespace: raw.Selector["namespace"]}
	switch d.Mapping {
	case model.MappingHost:
		if len(d.Hosts) == 0 {
			r.errorf(fields("dcgm", "mapping"), `host mapping needs the GPU hosts: dcgm: hosts: ["gpu-node-1"] (the Hostname label of dcgm-exporter's series)`)
		}
	default:
		if d.Pod == "" {
			d.Pod = defaultPod(name)
		}
	}
	ms, err := d.BuildMatchers()
	if err != nil {
		r.errorf(fields("dcgm", "pod"), "not a regular expression: %v", err)
	}
	d.Matchers = ms
	return d
}

// warnBroadSelector: the selector is what tells this service's series from
// every other exporter of the same metric names. Without job (and, when
// Kubernetes discovers the targets, namespace) another service's errors
// would burn this one's budget.
func (r *resolver) warnBroadSelector(name string, raw rawService) {
	var missing, spans []string
	if raw.Selector["job"] == "" {
		missing = append(missing, fmt.Sprintf("job: %q", name))
		spans = append(spans, "every scrape job")
	}
	if raw.Scrape.Mode != model.ScrapeStatic && raw.Selector["namespace"] == "" {
		missing = append(missing, `namespace: "<the pods' namespace>"`)
		spans = append(spans, "every namespace")
	}
	if len(missing) == 0 {
		return
	}
	r.warnf(fields("selector"), "every query matches %s's metrics in %s, so other services' traffic would count as this one's; add selector: {%s} (slogen's scrape config names this service's job selector.job, or else the service name)",
		raw.Runtime, strings.Join(spans, " and "), strings.Join(missing, ", "))
}
