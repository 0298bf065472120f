package alertmanager_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/prometheus/common/model"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

// gatewayFleet is a gateway's service and two engine services of its
// pool, one with its own page severity, beside an engine no gateway
// routes to.
const gatewayFleet = `package slo
services: gateway: {runtime: "gaie", selector: job: "epp", dcgm: pod: "llama-.*", slos: availability: objective: 99.5}
services: "llama-a": {runtime: "vllm", behind: "gateway", selector: job: "llama-a", slos: availability: objective: 99}
services: "llama-b": {runtime: "vllm", behind: "gateway", selector: job: "llama-b", alerting: page_severity: "page", slos: availability: objective: 99}
services: lone: {runtime: "vllm", selector: job: "lone", slos: availability: objective: 99}
`

// While the gateway pages, the pages of the engines behind it wait: one
// incident, seen by users at the gateway, pages once. An engine's page
// while the gateway is fine, an engine's ticket, and a service no
// gateway routes to, still speak.
func TestAGatewaysPageMutesTheEnginesBehindIt(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "gw.cue", Data: []byte(gatewayFleet)})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := build(t, res.Spec.Services)
	burn := func(name string, b slomodel.BurnRule) model.LabelSet {
		svc := res.Spec.Services[slices.IndexFunc(res.Spec.Services, func(s slomodel.Service) bool { return s.Name == name })]
		return alert(rules.BurnAlert, rules.BurnLabels(svc, svc.SLOs[0], b))
	}
	page, ticket := slomodel.PageRule, slomodel.RuleOf(slomodel.TicketSlow)
	cases := map[string]struct {
		firing []model.LabelSet
		want   []string
	}{
		"the pool fails: the gateway's page alone speaks": {
			firing: []model.LabelSet{burn("gateway", page), burn("llama-a", page), burn("llama-b", page)},
			want:   []string{"gateway"},
		},
		"one engine fails, the gateway's users do not notice: the engine pages": {
			firing: []model.LabelSet{burn("llama-a", page)},
			want:   []string{"llama-a"},
		},
		"the gateway pages: an engine's ticket and a service outside its pool still come": {
			firing: []model.LabelSet{burn("gateway", page), burn("llama-a", ticket), burn("lone", page)},
			want:   []string{"gateway", "llama-a", "lone"},
		},
	}
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		c := cases[name]
		var got []string
		for _, a := range survivors(cfg.InhibitRules, c.firing) {
			got = append(got, string(a["service"]))
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v get through, want %v", name, got, c.want)
		}
	}
}
