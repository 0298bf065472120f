package alertmanager_test

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	amconfig "github.com/prometheus/alertmanager/config"
	amcommon "github.com/prometheus/alertmanager/config/common"
	amlabels "github.com/prometheus/alertmanager/pkg/labels"
	"github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/generate/alertmanager"
	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// fleet is three services: two of one team sending pages to different
// receivers, one with its own severities, and a team name that needs
// escaping.
const fleet = `package slo
services: chat: {
	team: "ml-platform", runtime: "vllm", selector: {job: "chat", namespace: "ml"}
	gpu: {product: "NVIDIA H100 80GB HBM3", count: 1}
	alerting: receivers: {page: "ml-pager", ticket: "ml-jira"}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s", group_by: ["model_name"]}}
	collector: requests_per_second: 10
}
services: rank: {
	team: "ml-platform", runtime: "triton", model: "r", selector: {job: "rank", namespace: "ml"}
	global: label: "cluster"
	alerting: receivers: {page: "search-pager", ticket: "ml-jira"}
	slos: availability: objective: 99.9
}
services: odd: {
	team: "a \"quoted\" \\ team", runtime: "sglang", selector: {job: "odd", namespace: "x"}
	alerting: {page_severity: "page", ticket_severity: "ticket"}
	slos: availability: objective: 99
}
`

func load(t *testing.T) []slomodel.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(fleet)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

// build writes the fragment and loads it strictly with Alertmanager's own
// config package, as Alertmanager would.
func build(t *testing.T, svcs []slomodel.Service) (*amconfig.Config, string) {
	t.Helper()
	data, err := alertmanager.Build(svcs)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := amconfig.Load(string(data))
	if err != nil {
		t.Fatalf("Alertmanager rejects the fragment: %v\n%s", err, data)
	}
	p := filepath.Join(t.TempDir(), alertmanager.File)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return cfg, p
}

func TestAmtoolAcceptsTheFragment(t *testing.T) {
	amtool := testenv.Tool(t, "amtool")
	_, p := build(t, load(t))
	if out, err := exec.Command(amtool, "check-config", p).CombinedOutput(); err != nil {
		t.Errorf("amtool check-config: %v\n%s", err, out)
	}
}

// route walks the routing tree as Alertmanager does (no route sets
// continue): the first child that matches, all the way down. It returns
// the deepest route's receiver and group_by, each inherited from the
// nearest route above that sets it, and the group the alert joins there:
// the route's path and the alert's values of the group_by labels.
func route(r *amconfig.Route, ls model.LabelSet) (receiver string, group string) {
	receiver, groupBy, path := r.Receiver, r.GroupBy, "/"
	for {
		next := slices.IndexFunc(r.Routes, func(c *amconfig.Route) bool { return amlabels.Matchers(c.Matchers).Matches(ls) })
		if next < 0 {
			group = path + ":"
			for _, l := range groupBy {
				group += fmt.Sprintf("%s=%q,", l, ls[l])
			}
			return receiver, group
		}
		r, path = r.Routes[next], path+strconv.Itoa(next)+"/"
		if r.Receiver != "" {
			receiver = r.Receiver
		}
		if r.GroupBy != nil {
			groupBy = r.GroupBy
		}
	}
}

func receiver(r *amconfig.Route, ls model.LabelSet) string {
	recv, _ := route(r, ls)
	return recv
}

// alert is an alert as the rules fire it: its rule labels and its name.
func alert(name string, ls map[string]string, extra ...string) model.LabelSet {
	out := model.LabelSet{model.AlertNameLabel: model.LabelValue(name)}
	for k, v := range ls {
		out[model.LabelName(k)] = model.LabelValue(v)
	}
	for i := 0; i+1 < len(extra); i += 2 {
		out[model.LabelName(extra[i])] = model.LabelValue(extra[i+1])
	}
	return out
}

func TestPagesAndTicketsReachTheSpecsReceivers(t *testing.T) {
	svcs := load(t)
	cfg, _ := build(t, svcs)
	for _, svc := range svcs {
		slo := svc.SLOs[0]
		page := alert(rules.BurnAlert, rules.BurnLabels(svc, slo, slomodel.PageRule))
		ticket := alert(rules.BurnAlert, rules.BurnLabels(svc, slo, slomodel.RuleOf(slomodel.TicketSlow)))
		budget := alert(rules.BudgetGoneAlert, rules.BudgetLabels(svc), "slo", slo.Name)
		for ls, want := range map[*model.LabelSet]string{&page: svc.Alerting.PageReceiver, &ticket: svc.Alerting.TicketReceiver, &budget: svc.Alerting.TicketReceiver} {
			if got := receiver(cfg.Route, *ls); got != want {
				t.Errorf("%s: %v goes to %s, want %s", svc.Name, *ls, got, want)
			}
		}
	}
	if !slices.Equal(cfg.Route.GroupBy, []model.LabelName{"service", "slo", "model_name"}) {
		t.Errorf("group_by %v, want service, slo and the split SLO's model_name: one incident of one SLO (and model) is one notification", cfg.Route.GroupBy)
	}
}

// In a fleet, an alert about a GPU no service claims, or about a
// dcgm-exporter job, names no service: it reaches the receiver of its
// severity that the first service has, never the unrouted root. One a
// service claims goes to that service's.
func TestAlertsAboutGPUsOfNoServiceReachAReceiver(t *testing.T) {
	svcs := load(t)
	cfg, _ := build(t, svcs)
	firstWith := func(severity string) string {
		for _, svc := range svcs {
			if a := svc.Alerting; a.TicketSeverity == severity {
				return a.TicketReceiver
			}
		}
		return ""
	}
	for _, pool := range gpualerts.Pools(svcs) {
		for _, a := range pool.Plan().Alerts {
			unclaimed := alert(a.Name, a.Labels, "job", pool.Job, "gpu", "0")
			if got, want := receiver(cfg.Route, unclaimed), firstWith(a.Labels["severity"]); got != want {
				t.Errorf("%v goes to %s, want %s", unclaimed, got, want)
			}
			for _, svc := range pool.Services {
				claimed := alert(a.Name, a.Labels, "job", pool.Job, "gpu", "0", "service", svc.Name, "team", team(svc))
				if got := receiver(cfg.Route, claimed); got != svc.Alerting.TicketReceiver {
					t.Errorf("%v goes to %s, want %s", claimed, got, svc.Alerting.TicketReceiver)
				}
			}
		}
	}
}

func team(svc slomodel.Service) string {
	for _, l := range svc.Alerting.Labels {
		if l.Name == "team" {
			return l.Value
		}
	}
	return ""
}

// An exporter that vanishes takes every SLO's series with it: the
// SLOMetricsAbsent of each SLO make one notification for the service, on
// the page receiver; burn-rate pages of two SLOs stay two incidents.
func TestAVanishedExporterPagesOncePerService(t *testing.T) {
	svcs := load(t)
	cfg, _ := build(t, svcs)
	for _, svc := range svcs {
		groups := map[string]bool{}
		for _, slo := range svc.SLOs {
			recv, group := route(cfg.Route, alert(rules.NoDataAlert, rules.NoDataLabels(svc, slo)))
			if recv != svc.Alerting.PageReceiver {
				t.Errorf("%s: SLOMetricsAbsent of %s goes to %s, want %s", svc.Name, slo.Name, recv, svc.Alerting.PageReceiver)
			}
			groups[group] = true
		}
		if len(groups) != 1 {
			t.Errorf("%s: its SLOs' SLOMetricsAbsent make %d notifications, want one: %v", svc.Name, len(groups), slices.Sorted(maps.Keys(groups)))
		}
	}
	chat := svcs[slices.IndexFunc(svcs, func(s slomodel.Service) bool { return s.Name == "chat" })]
	_, avail := route(cfg.Route, alert(rules.BurnAlert, rules.BurnLabels(chat, chat.SLOs[0], slomodel.PageRule)))
	_, latency := route(cfg.Route, alert(rules.BurnAlert, rules.BurnLabels(chat, chat.SLOs[1], slomodel.PageRule)))
	if avail == latency {
		t.Errorf("pages of two SLOs share the group %s, want one each", avail)
	}
}

// survivors applies the inhibition rules as Alertmanager does: a target
// is muted by a firing source with the same equal labels, and an alert
// matching both sides of a rule is not muted by one that does too.
func survivors(rulesOf []amcommon.InhibitRule, firing []model.LabelSet) []model.LabelSet {
	var out []model.LabelSet
	for _, target := range firing {
		muted := false
		for _, r := range rulesOf {
			if !amlabels.Matchers(r.TargetMatchers).Matches(target) {
				continue
			}
			bothSides := amlabels.Matchers(r.SourceMatchers).Matches(target)
			for _, source := range firing {
				if !amlabels.Matchers(r.SourceMatchers).Matches(source) || (bothSides && amlabels.Matchers(r.TargetMatchers).Matches(source)) {
					continue
				}
				if equalOn(r.Equal, source, target) {
					muted = true
				}
			}
		}
		if !muted {
			out = append(out, target)
		}
	}
	return out
}

func equalOn(names []string, a, b model.LabelSet) bool {
	for _, n := range names {
		if a[model.LabelName(n)] != b[model.LabelName(n)] {
			return false
		}
	}
	return true
}

func names(ls []model.LabelSet) []string {
	var out []string
	for _, l := range ls {
		n := string(l[model.AlertNameLabel])
		if tier := l["tier"]; tier != "" {
			n += "/" + string(tier)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// Scenarios of alerts as the generated rules fire them, and which the
// inhibitions let through.
func TestInhibitionsLeaveOneVoicePerIncident(t *testing.T) {
	svcs := load(t)
	cfg, _ := build(t, svcs)
	chat := svcs[slices.IndexFunc(svcs, func(s slomodel.Service) bool { return s.Name == "chat" })]
	avail, latency := chat.SLOs[0], chat.SLOs[1]
	rank := svcs[slices.IndexFunc(svcs, func(s slomodel.Service) bool { return s.Name == "rank" })]
	page, ticketFast, ticketSlow := slomodel.PageRule, slomodel.RuleOf(slomodel.TicketFast), slomodel.RuleOf(slomodel.TicketSlow)
	burn := func(slo slomodel.SLO, b slomodel.BurnRule) model.LabelSet {
		return alert(rules.BurnAlert, rules.BurnLabels(chat, slo, b))
	}
	burnOf := func(slo slomodel.SLO, b slomodel.BurnRule, modelName string) model.LabelSet {
		return alert(rules.BurnAlert, rules.BurnLabels(chat, slo, b), "model_name", modelName)
	}
	// A fleet's: chat's own alerts, and its pool's about a GPU chat
	// claims, which carry the exporter's job as GPUExporterDown does.
	gpu := map[string]model.LabelSet{}
	var own model.LabelSet // chat's GPUExporterDown, when its mapping finds none of the job's GPUs
	for _, a := range gpualerts.NewFleetPlan(chat).Alerts {
		gpu[a.Name] = alert(a.Name, a.Labels, "gpu", "0")
		if a.Name == gpualerts.ExporterDown {
			own = alert(a.Name, a.Labels)
		}
	}
	pool := gpualerts.Pools(svcs)[0]
	poolLabels := map[string]map[string]string{}
	for _, a := range pool.Plan().Alerts {
		poolLabels[a.Name] = a.Labels
		gpu[a.Name] = alert(a.Name, a.Labels, "gpu", "0", "job", pool.Job, "service", "chat")
	}
	gpu[gpualerts.ExporterDown] = alert(gpualerts.ExporterDown, poolLabels[gpualerts.ExporterDown], "job", pool.Job)
	// chat's alerts on fatal log lines, as a pod's counts fire them.
	logged := func(name, pod string) model.LabelSet {
		for _, a := range gpualerts.NewFleetPlan(chat).Alerts {
			if a.Name == name {
				return alert(name, a.Labels, "service_name", "chat", "k8s_namespace_name", "ml", "k8s_pod_name", pod)
			}
		}
		t.Fatalf("chat has no %s", name)
		return nil
	}
	otherJob := alert(gpualerts.XIDErrors, poolLabels[gpualerts.XIDErrors], "gpu", "0", "job", "other-dcgm", "service", "chat")
	cases := map[string]struct {
		firing []model.LabelSet
		want   []string
	}{
		"a long outage: the page speaks, the tickets of the same SLO wait": {
			firing: []model.LabelSet{burn(avail, page), burn(avail, ticketFast),
				alert(rules.BudgetLowAlert, rules.BudgetLabels(chat), "slo", avail.Name), burn(latency, ticketSlow)},
			want: []string{"SLOErrorBudgetBurn/page", "SLOErrorBudgetBurn/ticket_slow"},
		},
		"series gone: that SLO's burn-rate alerts cannot be trusted, another SLO's can": {
			firing: []model.LabelSet{alert(rules.NoDataAlert, rules.NoDataLabels(chat, latency)), burn(latency, page), burn(avail, page)},
			want:   []string{"SLOErrorBudgetBurn/page", "SLOMetricsAbsent"},
		},
		"one model burns: its page mutes its own tickets, not another model's": {
			firing: []model.LabelSet{burnOf(latency, page, "a"), burnOf(latency, ticketSlow, "a"), burnOf(latency, ticketSlow, "b")},
			want:   []string{"SLOErrorBudgetBurn/page", "SLOErrorBudgetBurn/ticket_slow"},
		},
		"a split SLO's series gone: no model's burn-rate alert can be trusted": {
			firing: []model.LabelSet{alert(rules.NoDataAlert, rules.NoDataLabels(chat, latency)), burnOf(latency, page, "a"), burnOf(latency, ticketSlow, "b")},
			want:   []string{"SLOMetricsAbsent"},
		},
		"one cluster's series gone: the global page of a service that spans clusters still speaks": {
			firing: []model.LabelSet{alert(rules.NoDataAlert, rules.NoDataLabels(rank, rank.SLOs[0]), "cluster", "b"), alert(rules.BurnAlert, rules.BurnLabels(rank, rank.SLOs[0], page)),
				alert(rules.BurnAlert, rules.BurnLabels(rank, rank.SLOs[0], ticketSlow))},
			want: []string{"SLOErrorBudgetBurn/page", "SLOMetricsAbsent"},
		},
		"a vLLM engine dies of a CUDA OOM: its EngineDeadError speaks for the pod, the lines before it wait": {
			firing: []model.LabelSet{logged(gpualerts.CUDAOutOfMemory, "chat-0"), logged(gpualerts.VLLMEngineDead, "chat-0"), logged(gpualerts.NCCLTimeout, "chat-0")},
			want:   []string{"VLLMEngineDead"},
		},
		"one pod's engine dies while another runs out of memory and lives: two incidents, two voices": {
			firing: []model.LabelSet{logged(gpualerts.VLLMEngineDead, "chat-0"), logged(gpualerts.CUDAOutOfMemory, "chat-1")},
			want:   []string{"InferenceCUDAOutOfMemory", "VLLMEngineDead"},
		},
		"dcgm-exporter down, every service on it blind: the job's GPUExporterDown alone speaks for the exporter": {
			firing: []model.LabelSet{gpu[gpualerts.ExporterDown], own, gpu[gpualerts.TemperatureHigh]},
			want:   []string{"GPUExporterDown"},
		},
		"a service's mapping finds none of the job's GPUs: its GPUExporterDown speaks, and mutes its alerts that read them": {
			firing: []model.LabelSet{own, gpu[gpualerts.MemoryHigh], gpu[gpualerts.KVCacheHigh]},
			want:   []string{"GPUExporterDown", "KVCacheHigh"},
		},
		"dcgm-exporter down: the alerts about its GPUs wait; the service's own, another job's GPUs' and the runtime's do not": {
			firing: []model.LabelSet{gpu[gpualerts.ExporterDown], gpu[gpualerts.MemoryHigh], gpu[gpualerts.TemperatureHigh], gpu[gpualerts.KVCacheHigh], otherJob},
			want:   []string{"GPUExporterDown", "GPUMemoryHigh", "GPUXIDErrors", "KVCacheHigh"},
		},
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		c := cases[name]
		if got := names(survivors(cfg.InhibitRules, c.firing)); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v get through, want %v", name, got, c.want)
		}
	}
}
