package rules_test

import (
	"context"
	"maps"
	"strconv"
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// awkwardFleet is awkward with a pod regular expression holding a
// backslash, and a goodput SLO, whose bounds are thresholds too.
const awkwardFleet = `package slo
services: "odd-one": {
	runtime: "vllm"
	team:    "t\"eam"
	model:   "org/model \"v2\" {beta} \\ ü"
	selector: {namespace: "ns\"x", job: "job\\y", team_label: "{{ $labels.x }}", service: "front"}
	dcgm: pod: "odd-\\d+"
	slos: {
		ttft: {objective: 99, threshold: "1s"}
		"slow-latency": {sli: "latency", objective: 95, threshold: "2.5s", window: "7d"}
		good: {sli: "goodput", objective: 90, bounds: {ttft: "0.5s", e2e: "20s"}}
	}
}`

// replayFleet evaluates the service's fleet rule files once and returns
// what a query reads then.
func replayFleet(t *testing.T, svc model.Service, uid string) func(string) []map[string]string {
	t.Helper()
	local, global := rules.SplitFleet(svc, uid)
	groups := append(local, global...)
	for i := range groups {
		groups[i].Interval = ""
	}
	out, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	if errs := promcompat.CheckRules("rules.yaml", out); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, out)
	}
	start := time.Unix(0, 0).UTC()
	r, err := promtest.Replay{Every: time.Minute}.Run(context.Background(), out, nil, start, start.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return func(q string) []map[string]string {
		v, err := r.Query(context.Background(), q, start.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		var got []map[string]string
		for _, s := range v {
			ls := s.Metric.Map()
			ls["value"] = strconv.FormatFloat(s.F, 'g', -1, 64)
			got = append(got, ls)
		}
		return got
	}
}

// A fleet's dashboards read a service's identity from its
// slogen:service_info series: each label holds the spec's value exactly,
// whatever it holds, a selector label named like one of slogen's own
// gets the selector_ prefix, and the pod regular expression reads back,
// put verbatim between a query's quotes, as the spec wrote it.
func TestServiceInfoCarriesTheSpecsValues(t *testing.T) {
	svc := load(t, awkwardFleet)
	query := replayFleet(t, svc, "slogen-vllm-0123abcd")
	got := query(rules.InfoMetric)
	want := map[string]string{
		"__name__": rules.InfoMetric, "value": "1", "service": "odd-one", "team": `t"eam`, "runtime": "vllm",
		"dashboard": "slogen-vllm-0123abcd", "model": `org/model "v2" {beta} \ ü`,
		"namespace": `ns"x`, "job": `job\y`, "team_label": "{{ $labels.x }}", "selector_service": "front",
		"dcgm_namespace": `ns"x`, "dcgm_pod": `odd-\\d+`,
	}
	if len(got) != 1 || !maps.Equal(got[0], want) {
		t.Fatalf("service_info = %v\nwant %v", got, want)
	}
	e, err := promcompat.Parser().ParseExpr(`x{exported_pod=~"` + got[0]["dcgm_pod"] + `"}`)
	if err != nil {
		t.Fatal(err)
	}
	if m := parser.ExtractSelectors(e)[0][0]; m.Value != `odd-\d+` {
		t.Errorf("dcgm_pod reads back as %q in a query, want the spec's odd-\\d+", m.Value)
	}
}

// Each latency SLO records its threshold, a goodput SLO each bound's,
// in seconds; an SLO without a threshold records none.
func TestThresholdRecordings(t *testing.T) {
	svc := load(t, awkwardFleet)
	got := map[string]string{}
	for _, s := range replayFleet(t, svc, "slogen-vllm-0123abcd")(rules.ThresholdMetric) {
		got[s["slo"]+"/"+s["bound"]] = s["value"]
	}
	want := map[string]string{"ttft/": "1", "slow-latency/": "2.5", "good/ttft": "0.5", "good/latency": "20"}
	if !maps.Equal(got, want) {
		t.Errorf("thresholds = %v, want %v", got, want)
	}
}

// A service built alone keeps its rule file as it was: the recordings
// are a fleet's.
func TestAloneRecordsNoFleetInfo(t *testing.T) {
	for _, g := range rules.Build(load(t, awkwardFleet)) {
		for _, r := range g.Rules {
			if r.Record == rules.InfoMetric || r.Record == rules.ThresholdMetric {
				t.Errorf("group %s records %s", g.Name, r.Record)
			}
		}
	}
}

// A service with no SLO (llama.cpp serves no kind) has no SLO rule
// group of its own, and built in a fleet still records who it is, which
// its kind's dashboard reads.
func TestAServiceWithoutSLOsRecordsOnlyItsIdentity(t *testing.T) {
	svc := load(t, `package slo
services: "coder": {runtime: "llamacpp", selector: job: "llama", slos: {}}`)
	if local, global := rules.Split(svc); local != nil || global != nil {
		t.Errorf("Split = %v, %v; want no group", local, global)
	}
	got := replayFleet(t, svc, "slogen-llamacpp-0123abcd")(rules.InfoMetric)
	if len(got) != 1 || got[0]["service"] != "coder" || got[0]["runtime"] != "llamacpp" {
		t.Errorf("service_info = %v, want the service's", got)
	}
}
