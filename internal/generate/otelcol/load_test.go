package otelcol_test

import (
	"os"
	"path/filepath"
	"testing"
)

// specs are a service of each runtime, alone and as a fleet: every
// fragment slogen writes must load and validate in the Collector.
var specs = map[string]string{
	"vllm": `services: chat: {
		runtime: "vllm"
		slos: {
			ttft: {objective: 99, threshold: "1s"}
			latency: {objective: 99, threshold: "30s"}
			queue: {objective: 99, threshold: "500ms"}
		}
		collector: {requests_per_second: 40}
	}`,
	"sglang": `services: chat: {
		runtime: "sglang"
		slos: goodput: {objective: 99, bounds: {ttft: "1s", e2e: "40s"}}
		collector: {requests_per_second: 5, sample_floor: 0.1, decision_wait: "45s"}
	}`,
	"tgi": `services: chat: {
		runtime: "tgi"
		slos: availability: objective: 99.5
		collector: {requests_per_second: 1}
	}`,
	"triton": `services: chat: {
		runtime: "triton"
		slos: availability: objective: 99.5
		collector: {requests_per_second: 1}
	}`,
	"fleet": `services: {
		a: {runtime: "vllm", slos: ttft: {objective: 99, threshold: "1s"}, collector: requests_per_second: 10}
		b: {runtime: "sglang", slos: ttft: {objective: 99, threshold: "2s"}, collector: requests_per_second: 20}
		c: {runtime: "vllm", slos: availability: objective: 99}
	}`,
}

func TestEveryFragmentLoadsAndValidates(t *testing.T) {
	for name, cue := range specs {
		t.Run(name, func(t *testing.T) {
			cfg := load(t, build(t, cue))
			if len(cfg.Service.Pipelines) == 0 {
				t.Fatal("no pipelines")
			}
		})
	}
}

// TestEveryExampleFragmentLoadsAndValidates loads the fragments the
// examples commit, as slogen build wrote them.
func TestEveryExampleFragmentLoadsAndValidates(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../../examples/*/generated/otelcol.yaml", "../../../examples/*/generated/*/otelcol.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 4 {
		t.Fatalf("found %d examples' otelcol.yaml, want one per runtime with spans: %v", len(files), files)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			load(t, data)
		})
	}
}
