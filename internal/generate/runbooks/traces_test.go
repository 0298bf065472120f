package runbooks_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBurnSectionQueriesTheKeptTraces: with a collector block, the burn
// alert's section gives each latency SLO the TraceQL query of the traces
// the Collector kept for it, the one its alert's traces_url opens;
// without, the section says nothing of traces.
func TestBurnSectionQueriesTheKeptTraces(t *testing.T) {
	svc := loadServices(t, filepath.Join("..", "..", "..", "examples", "vllm", "chat-llama.cue"))[0]
	if svc.Collector == nil {
		t.Fatal("the vLLM example has no collector block")
	}
	var latency int
	for _, slo := range svc.SLOs {
		if len(slo.LatencyBounds()) > 0 {
			latency++
		}
	}
	page := string(render(t, svc))
	if got := strings.Count(page, "```traceql\n{ resource.service.name = \""+svc.Name+"\" && "); got != latency || latency == 0 {
		t.Errorf("%d TraceQL queries of %s's kept traces, want one per latency SLO (%d)", got, svc.Name, latency)
	}
	svc.Collector = nil
	if strings.Contains(string(render(t, svc)), "```traceql") {
		t.Error("a service without a collector block gets a TraceQL query")
	}
}
