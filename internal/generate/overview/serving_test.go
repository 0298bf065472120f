package overview

import (
	"maps"
	"testing"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
)

// TestServingGaugesAreEachServicesFullestReplica: the KV cache and queue
// panels read each runtime's gauge at each service's fullest replica,
// the series told apart by the selector values in the services' info:
// two vLLM services in one namespace, and an SGLang one.
func TestServingGaugesAreEachServicesFullestReplica(t *testing.T) {
	svcs := load(t, "serving.cue", `package slo
services: a: {runtime: "vllm", selector: {namespace: "ns", job: "a"}, slos: availability: objective: 99.5}
services: b: {runtime: "vllm", selector: {namespace: "ns", job: "b"}, slos: availability: objective: 99.5}
services: c: {runtime: "sglang", selector: {namespace: "ns", job: "c"}, slos: availability: objective: 99.5}
`)
	kv := map[string]string{}
	waiting := map[string]string{}
	for _, svc := range svcs {
		kv[svc.Name], waiting[svc.Name] = svc.Metrics.KVCache.Name, svc.Metrics.Waiting.Name
	}
	data := map[string]float64{}
	for _, s := range []string{"a", "b", "c"} {
		data[`slogen:service_info{service="`+s+`",team="t",runtime="`+map[string]string{"a": "vllm", "b": "vllm", "c": "sglang"}[s]+`",namespace="ns",job="`+s+`"}`] = 1
		data[`slogen:slo_error_budget_remaining:ratio{slo="availability",service="`+s+`"}`] = 0.5
	}
	for name, v := range map[string]float64{
		kv["a"] + `{namespace="ns",job="a",pod="a-1"}`: 0.5, kv["a"] + `{namespace="ns",job="a",pod="a-2"}`: 0.9,
		kv["b"] + `{namespace="ns",job="b",pod="b-1"}`:      0.3,
		kv["c"] + `{namespace="ns",job="c",pod="c-1"}`:      0.7,
		waiting["a"] + `{namespace="ns",job="a",pod="a-1"}`: 4, waiting["a"] + `{namespace="ns",job="a",pod="a-2"}`: 1,
		waiting["b"] + `{namespace="ns",job="b",pod="b-1"}`: 0,
		waiting["c"] + `{namespace="ns",job="c",pod="c-1"}`: 12,
		// another job's replica in the namespace, no service's
		kv["a"] + `{namespace="ns",job="other",pod="o-1"}`: 1,
	} {
		data[name] = v
	}
	d := build(t, svcs)
	r := store(t, data)
	for title, want := range map[string]map[string]float64{
		"KV cache in use, fullest replica": {"a": 0.9, "b": 0.3, "c": 0.7},
		"Requests waiting, longest queue":  {"a": 4, "b": 0, "c": 12},
	} {
		got := map[string]float64{}
		for _, s := range query(t, r, panelQueries(t, d, title)[0].Expr, grafanatest.AllPicked(d)) {
			got[s.Metric.Get("service")] = s.F
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: %v, want %v", title, got, want)
		}
	}
}
