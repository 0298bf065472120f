package profile

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// The SLI trees must print exactly as Prometheus reprints their text, or
// the rules would differ from what the same PromQL written by hand reads.
func TestSLITreesPrintAsPrometheusReprints(t *testing.T) {
	scope := Scope{Selector: []labels.Label{{Name: "job", Value: `a"b\c`}, {Name: "namespace", Value: "ml"}}, ModelLabel: "model", Model: "m"}
	custom, err := customEvents(`reqs_total{code="200"}`, `reqs_total{code=~"5.."}`)
	if err != nil {
		t.Fatal(err)
	}
	ratio, err := RatioSLI(scope, `sum by (x) (rate(bad_total[$window])) / 2`, `rate(total[$window])`)
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]parser.Expr{"ratio errors": ratio.Errors, "ratio requests": ratio.Requests,
		"custom errors": sumRates(scope, custom.Failed, true), "custom requests": sumRates(scope, custom.Total, false)}
	profiles := map[string]Profile{}
	for name, p := range builtin {
		profiles[name] = p
		if n, ok := p.Native(); ok {
			profiles[name+" native"] = n
		}
	}
	for name, p := range profiles {
		if p.Availability != nil {
			sli := p.AvailabilitySLI(scope)
			exprs[name+" availability errors"], exprs[name+" availability requests"] = sli.Errors, sli.Requests
		}
		for _, h := range []*Histogram{p.Latency, p.TTFT, p.ITL, p.TPOT} {
			if h != nil {
				bound := 0.5 // any will do for a native histogram
				if len(h.Buckets) > 0 {
					bound = h.Buckets[0]
				}
				sli := h.LatencySLI(scope, bound)
				exprs[name+" "+h.Name+" errors"], exprs[name+" "+h.Name+" requests"] = sli.Errors, sli.Requests
			}
		}
	}
	for name, tree := range exprs {
		q := tree.String()
		e, err := parser.NewParser(parser.Options{}).ParseExpr(q)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, q)
			continue
		}
		if got := e.String(); got != q {
			t.Errorf("%s: Prometheus reprints\n%s\nas\n%s", name, q, got)
		}
	}
}

// A native histogram's SLI counts observations with histogram_count and
// the good ones with histogram_fraction, keeping only series that
// observed something (an empty one's fraction is NaN); its failures are
// the histogram_count of the failed requests' series. A runtime whose
// exporter sends classic histograms only has no native profile.
func TestNativeSLIs(t *testing.T) {
	if _, ok := vllm.Native(); ok {
		t.Error("vLLM's profile turned native; prometheus_client sends classic histograms only")
	}
	p, ok := otelGenAI.Native()
	if !ok {
		t.Fatal("otel-genai has no native profile")
	}
	scope := Scope{ModelLabel: p.ModelLabel, Model: "m"}
	sel := `gen_ai_server_time_to_first_token_seconds{gen_ai_request_model="m"}[5m]`
	ttft := p.TTFT.LatencySLI(scope, 0.8)
	for name, c := range map[string]struct{ got, want string }{
		"ttft requests":       {ttft.Requests.String(), `sum(histogram_count(rate(` + sel + `)))`},
		"ttft errors":         {ttft.Errors.String(), `clamp_min(sum(histogram_count(rate(` + sel + `))) - (sum(histogram_fraction(0, 0.8, rate(` + sel + `)) * (histogram_count(rate(` + sel + `)) > 0)) or vector(0)), 0)`},
		"availability errors": {p.AvailabilitySLI(scope).Errors.String(), `(sum(histogram_count(rate(gen_ai_server_request_duration_seconds{error_type!="",gen_ai_request_model="m"}[5m]))) or vector(0))`},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", name, c.got, c.want)
		}
	}
	if !p.Serving.Completed.IsZero() || p.TTFT.Buckets != nil {
		t.Errorf("a native profile keeps a _count counter (%v) or buckets (%v)", p.Serving.Completed, p.TTFT.Buckets)
	}
	if otelGenAI.TTFT.Native || otelGenAI.Availability.Total[0].Native {
		t.Error("Native changed the table's entry")
	}
}
