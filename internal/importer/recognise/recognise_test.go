package recognise

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/importer"
)

const (
	ttftCount = `sum(rate(vllm:time_to_first_token_seconds_count{job="vllm",namespace="ai",model_name="llama"}[$window]))`
	ttftFast  = `sum(rate(vllm:time_to_first_token_seconds_bucket{job="vllm",namespace="ai",model_name="llama",le="%s"}[$window]))`
)

func ratioSLO(name, bad, total string) importer.SLO {
	return importer.SLO{From: name, Name: name, Kind: "ratio", Objective: 99, Bad: bad, Total: total,
		Notes: importer.Notes{Exact: []string{"sli.events: error_query as bad, total_query as total, {{.window}} as $window"}}}
}

func custom(slos ...importer.SLO) importer.Service {
	return importer.Service{Name: "chat", Runtime: importer.CustomRuntime, Metric: "x", SLOs: slos}
}

func TestVLLMTTFTBucketOverCountIsATTFTSLO(t *testing.T) {
	for name, bad := range map[string]string{
		"Sloth's form, count minus bucket": "(" + ttftCount + " - " + strings.Replace(ttftFast, "%s", "1.0", 1) + ")",
		"OpenSLO's good, written as bad":   "(" + ttftCount + ") - (" + strings.Replace(ttftFast, "%s", "1", 1) + ")",
	} {
		t.Run(name, func(t *testing.T) {
			svc := []importer.Service{custom(ratioSLO("ttft", bad, ttftCount))}
			Services(svc)
			got := svc[0]
			slo := got.SLOs[0]
			if slo.Kind != "ttft" || slo.Threshold != "1s" || slo.Bad != "" || slo.Total != "" {
				t.Fatalf("got kind %q threshold %q bad %q total %q, want a ttft SLO at 1s with no queries", slo.Kind, slo.Threshold, slo.Bad, slo.Total)
			}
			if got.Runtime != "vllm" || got.Model != "llama" || got.Metric != "" {
				t.Errorf("service: runtime %q model %q metric %q, want vllm, llama and no custom metric", got.Runtime, got.Model, got.Metric)
			}
			if len(got.Selector) != 2 || got.Selector[0] != (importer.Label{Key: "job", Value: "vllm"}) || got.Selector[1] != (importer.Label{Key: "namespace", Value: "ai"}) {
				t.Errorf("selector = %v, want job and namespace", got.Selector)
			}
			if len(slo.Notes.Exact) != 0 || !strings.Contains(slo.Notes.Changed[0], "a ttft SLO with threshold 1s") {
				t.Errorf("notes = %+v, want the queries' note gone and the kind said", slo.Notes)
			}
		})
	}
}

func TestWhatIsNotAProfiledSLIStaysARatio(t *testing.T) {
	availability := func(job string) importer.SLO {
		return ratioSLO("answers", `sum(rate(http_requests_total{job="`+job+`",status="5xx"}[$window]))`, `sum(rate(http_requests_total{job="`+job+`"}[$window]))`)
	}
	for name, tc := range map[string]struct {
		svc  importer.Service
		note string
	}{
		"an le that is not one of vLLM's TTFT buckets": {
			custom(ratioSLO("ttft", "("+ttftCount+" - "+strings.Replace(ttftFast, "%s", "0.3", 1)+")", ttftCount)),
			`le="0.3" is not one of its buckets (nearest: 0.25 and 0.5)`,
		},
		"http_requests_total alone, which any HTTP app may count": {
			custom(availability("vllm")),
			"is what any HTTP app may count",
		},
		"a regex matcher, which a selector cannot hold": {
			custom(ratioSLO("ttft", "("+ttftCount+" - "+strings.Replace(strings.Replace(ttftFast, "%s", "1.0", 1), `job="vllm"`, `job=~"vllm.*"`, 1)+")", strings.Replace(ttftCount, `job="vllm"`, `job=~"vllm.*"`, 1))),
			"",
		},
	} {
		t.Run(name, func(t *testing.T) {
			svc := []importer.Service{tc.svc}
			Services(svc)
			slo := svc[0].SLOs[0]
			if slo.Kind != "ratio" || svc[0].Runtime != importer.CustomRuntime {
				t.Fatalf("got kind %q on runtime %q, want a ratio SLO on custom", slo.Kind, svc[0].Runtime)
			}
			if tc.note != "" && !strings.Contains(strings.Join(slo.Notes.Changed, "\n"), tc.note) {
				t.Errorf("notes lack %q: %q", tc.note, slo.Notes.Changed)
			}
		})
	}
}

func TestTheErrorRatioFollowsAServiceTheHistogramsTell(t *testing.T) {
	answers := ratioSLO("answers", `sum(rate(http_requests_total{job="vllm",namespace="ai",status="5xx"}[$window]))`, `sum(rate(http_requests_total{job="vllm",namespace="ai"}[$window]))`)
	other := ratioSLO("other-ttft", "("+strings.Replace(ttftCount, "llama", "mistral", 1)+" - "+strings.Replace(strings.Replace(ttftFast, "%s", "1.0", 1), "llama", "mistral", 1)+")", strings.Replace(ttftCount, "llama", "mistral", 1))
	svc := []importer.Service{custom(ratioSLO("ttft", "("+ttftCount+" - "+strings.Replace(ttftFast, "%s", "2.5", 1)+")", ttftCount), answers, other)}
	Services(svc)
	got := svc[0].SLOs
	if got[0].Kind != "ttft" || got[0].Threshold != "2.5s" {
		t.Errorf("ttft: %q at %q, want ttft at 2.5s", got[0].Kind, got[0].Threshold)
	}
	if got[1].Kind != "availability" {
		t.Errorf("answers: %q, want availability: vLLM's error ratio, on the service the TTFT SLO tells", got[1].Kind)
	}
	if got[2].Kind != "ratio" || !strings.Contains(strings.Join(got[2].Notes.Changed, "\n"), `model "mistral"`) {
		t.Errorf("another model's TTFT: %q %q, want a ratio SLO that says why", got[2].Kind, got[2].Notes.Changed)
	}
}
