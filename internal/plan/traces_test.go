package plan_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

// tracesSpec is a vLLM service with a TTFT, a goodput and an
// availability SLO; collector is its collector block, or nothing.
func tracesSpec(runtime, collector string) string {
	return `services: chat: {
	runtime: "` + runtime + `"
	alerting: grafana_url: "https://grafana.example.com/"
	slos: {
		ttft: {objective: 99, threshold: "1s"}
		goodput: {objective: 95, bounds: {ttft: "2.5s", e2e: "20s"}}
		availability: {objective: 99.9}
	}
	` + collector + `
}`
}

func planned(t *testing.T, src string) *plan.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return plan.New(res.Spec.Services[0])
}

// traceLinks are the traces_url annotations of the service's burn-rate
// alerts, by SLO and tier, decoded to the TraceQL query they open.
func traceLinks(t *testing.T, p *plan.Service) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, g := range append(p.Local, p.Global...) {
		for _, r := range g.Rules {
			link, ok := r.Annotations[plan.TracesAnnotation]
			if !ok {
				continue
			}
			if r.Alert != rules.BurnAlert {
				t.Errorf("%s carries %s", r.Alert, plan.TracesAnnotation)
			}
			u, err := url.Parse(link)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(link, "https://grafana.example.com/explore?") {
				t.Errorf("%s does not open the spec's Grafana's Explore", link)
			}
			var panes map[string]struct {
				Datasource string
				Queries    []struct{ Query, QueryType string }
				Range      struct{ From, To string }
			}
			if err := json.Unmarshal([]byte(u.Query().Get("panes")), &panes); err != nil {
				t.Fatalf("%s: %v", link, err)
			}
			pane := panes["slogen"]
			if pane.Datasource != "tempo" || len(pane.Queries) != 1 || pane.Queries[0].QueryType != "traceql" || pane.Range.From != "now-1h" {
				t.Errorf("the link opens %+v, want one TraceQL query on the tempo data source over the last hour", pane)
			}
			q := ""
			if len(pane.Queries) == 1 {
				q = pane.Queries[0].Query
			}
			out[r.Labels["slo"]+" "+r.Labels["tier"]] = q
		}
	}
	return out
}

// TestTTFTPageLinksItsSlowFirstTokens: a service whose Collector keeps
// the traces of slow first tokens links its TTFT page and tickets to
// them, a goodput SLO to those over either bound, and an availability
// SLO to none; a service without the block, or whose runtime writes no
// latency attribute, links nothing.
func TestTTFTPageLinksItsSlowFirstTokens(t *testing.T) {
	got := traceLinks(t, planned(t, tracesSpec("vllm", `collector: requests_per_second: 10`)))
	ttft := `{ resource.service.name = "chat" && span.gen_ai.latency.time_to_first_token > 1 }`
	goodput := `{ resource.service.name = "chat" && (span.gen_ai.latency.time_to_first_token > 2.5 || span.gen_ai.latency.e2e > 20) }`
	for _, tier := range []string{"page", "ticket_fast", "ticket_slow"} {
		if got["ttft "+tier] != ttft {
			t.Errorf("ttft's %s links %q, want %q", tier, got["ttft "+tier], ttft)
		}
		if got["goodput "+tier] != goodput {
			t.Errorf("goodput's %s links %q, want %q", tier, got["goodput "+tier], goodput)
		}
	}
	if len(got) != 6 {
		t.Errorf("links %v, want the two latency SLOs' three tiers only", got)
	}
	if got := traceLinks(t, planned(t, tracesSpec("vllm", ""))); len(got) > 0 {
		t.Errorf("without a collector block: links %v, want none", got)
	}
	tgi := model.Service{Name: "chat", Runtime: "tgi", Collector: &model.Collector{}}
	if q, ok := plan.SlowTraces(tgi, model.SLO{Kind: model.Latency, Threshold: time.Second}); ok {
		t.Errorf("TGI's spans carry no latency attribute, yet its latency SLO queries %s", q)
	}
}
