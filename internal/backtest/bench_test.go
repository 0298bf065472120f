package backtest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
)

// weekOfVLLM is a week (and the warm-up before it) of a vLLM service's
// series behind three SLOs, from replicas pods scraped every 15s.
func weekOfVLLM(replicas int, from, to time.Time) []promtest.Input {
	start := from.Add(-backtest.Warmup)
	var out []promtest.Input
	series := func(name string, extra map[string]string, perScrape float64) {
		for r := range replicas {
			m := map[string]string{"__name__": name, "job": "chat", "namespace": "ml", "pod": fmt.Sprintf("chat-%d", r)}
			for k, v := range extra {
				m[k] = v
			}
			in := promtest.Input{Labels: labels.FromMap(m)}
			v := 0.0
			for ts := start; !ts.After(to); ts = ts.Add(15 * time.Second) {
				v += perScrape
				in.Samples = append(in.Samples, promql.FPoint{T: ts.UnixMilli(), F: v})
			}
			out = append(out, in)
		}
	}
	model := map[string]string{"model_name": "llama"}
	series("http_requests_total", map[string]string{"status": "2xx"}, 50)
	series("http_requests_total", map[string]string{"status": "5xx"}, 0.01)
	for _, h := range []struct{ name, le string }{{"vllm:e2e_request_latency_seconds", "2.5"}, {"vllm:time_to_first_token_seconds", "1.0"}} {
		series(h.name+"_count", model, 50)
		series(h.name+"_bucket", map[string]string{"model_name": "llama", "le": h.le}, 49.9)
	}
	return out
}

// BenchmarkBacktestWeek measures the evaluation of a week of a 3-SLO
// vLLM service with 8 replicas (docs/benchmarks.md).
func BenchmarkBacktestWeek(b *testing.B) {
	res, err := spec.LoadSources(spec.Source{Name: "s.cue", Data: []byte(`package slo
services: chat: {runtime: "vllm", model: "llama", selector: {job: "chat", namespace: "ml"}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s"}, ttft: {objective: 99, threshold: "1s"}}}
`)})
	if err != nil {
		b.Fatal(err)
	}
	svc := res.Spec.Services[0]
	to := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	from := to.Add(-7 * 24 * time.Hour)
	inputs := weekOfVLLM(8, from, to)
	b.ResetTimer()
	for range b.N {
		r, err := backtest.Run(context.Background(), svc, inputs, from, to, backtest.Config{Every: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Spans) != 0 {
			b.Fatalf("a healthy week fired %d alerts", len(r.Spans))
		}
	}
}
