package overview

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
)

// spanning is a service in two clusters, beside one in a single cluster.
const spanning = `package slo
services: chat: {
	team: "chat", runtime: "vllm"
	selector: {job: "chat"}
	global: label: "cluster"
	slos: availability: objective: 99.5
}
services: search: {
	team: "search", runtime: "vllm"
	selector: {job: "search"}
	slos: availability: objective: 99
}
`

// TestBurnAddsUpTheClustersOfAServiceThatSpansThem: the burn over 1h of a
// service in two clusters is the two clusters' errors over their
// requests, each cluster's HA pair counted once, as its burn alert reads
// it; a service in one cluster burns as its own recordings say.
func TestBurnAddsUpTheClustersOfAServiceThatSpansThem(t *testing.T) {
	svcs := load(t, "spanning.cue", spanning)
	data := map[string]float64{
		`slogen:service_info{service="chat",team="chat",runtime="vllm",job="chat",cluster="eu"}`: 1,
		`slogen:service_info{service="chat",team="chat",runtime="vllm",job="chat",cluster="us"}`: 1,
		`slogen:service_info{service="search",team="search",runtime="vllm",job="search"}`:        1,
		`slogen:slo_error_budget_remaining:ratio{service="chat",slo="availability"}`:             0.5,
		`slogen:slo_error_budget_remaining:ratio{service="search",slo="availability"}`:           0.7,
		`slogen:slo_objective:ratio{service="chat",slo="availability"}`:                          0.995,
		`slogen:slo_objective:ratio{service="search",slo="availability"}`:                        0.99,
		`slogen:slo_errors:rate1h{service="chat",slo="availability",cluster="eu",replica="a"}`:   0.03,
		`slogen:slo_errors:rate1h{service="chat",slo="availability",cluster="eu",replica="b"}`:   0.03,
		`slogen:slo_requests:rate1h{service="chat",slo="availability",cluster="eu",replica="a"}`: 3,
		`slogen:slo_requests:rate1h{service="chat",slo="availability",cluster="eu",replica="b"}`: 3,
		`slogen:slo_errors:rate1h{service="chat",slo="availability",cluster="us"}`:               0,
		`slogen:slo_requests:rate1h{service="chat",slo="availability",cluster="us"}`:             3,
		`slogen:slo_errors:rate1h{service="search",slo="availability"}`:                          0.02,
		`slogen:slo_requests:rate1h{service="search",slo="availability"}`:                        1,
	}
	d := build(t, svcs)
	rows := tableRows(t, svcs, data, grafanatest.AllPicked(d))
	want := map[string]float64{
		"chat/availability":   0.03 / 6 / 0.005, // 1×: the eu pair counted once
		"search/availability": 0.02 / 0.01,
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %v, want %d", names(rows), len(want))
	}
	for _, r := range rows {
		if got := r.values[BurnColumn("1h")]; !near(got, want[r.name()]) {
			t.Errorf("%s burns %v over 1h, want %v", r.name(), got, want[r.name()])
		}
	}
}
