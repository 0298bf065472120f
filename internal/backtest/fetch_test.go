package backtest_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/spec"
)

// The backtest fetches what the rules read, once: no recorded series, no
// selector whose series another one covers, every alert's inputs.
func TestSelectorsAreWhatTheRulesRead(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "s.cue", Data: []byte(`package slo
services: chat: {runtime: "vllm", model: "llama", selector: {job: "chat", namespace: "ml"}
	gpu: {product: "NVIDIA H100 80GB HBM3", count: 1}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s"}}}
`)})
	if err != nil {
		t.Fatal(err)
	}
	sels := backtest.Selectors(backtest.Groups(res.Spec.Services[0], true))
	t.Logf("%d selectors:\n%s", len(sels), strings.Join(sels, "\n"))
	for _, want := range []string{
		`http_requests_total{job="chat",namespace="ml"}`,
		`vllm:e2e_request_latency_seconds_count{job="chat",model_name="llama",namespace="ml"}`,
	} {
		if !slices.Contains(sels, want) {
			t.Errorf("no %s", want)
		}
	}
	for _, s := range sels {
		if strings.HasPrefix(s, "slogen:") || strings.Contains(s, `status="5xx"`) {
			t.Errorf("fetches %s, which the rules record or another selector covers", s)
		}
	}
	if !slices.ContainsFunc(sels, func(s string) bool { return strings.HasPrefix(s, "DCGM_FI_DEV_FB_USED") }) {
		t.Errorf("no GPU memory series for GPUMemoryHigh")
	}
}

// A series that stops, or skips scrapes, gets the stale marker a server
// wrote one interval after its last sample.
func TestStaleMarkersComeBack(t *testing.T) {
	var in []promql.FPoint
	for _, ts := range []int64{0, 60, 120, 180, 600, 660, 720} {
		in = append(in, promql.FPoint{T: ts * 1000, F: 1})
	}
	var stale []int64
	for _, p := range backtest.Stale(in, 1200_000) {
		if value.IsStaleNaN(p.F) {
			stale = append(stale, p.T/1000)
		}
	}
	if !slices.Equal(stale, []int64{240, 780}) {
		t.Errorf("stale markers at %v s, want after the gap (240) and after the end (780)", stale)
	}
}
