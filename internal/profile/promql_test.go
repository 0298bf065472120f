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
	for name, p := range builtin {
		if p.Availability != nil {
			sli := p.AvailabilitySLI(scope)
			exprs[name+" availability errors"], exprs[name+" availability requests"] = sli.Errors, sli.Requests
		}
		for _, h := range []*Histogram{p.Latency, p.TTFT, p.ITL} {
			if h != nil {
				sli := h.LatencySLI(scope, h.Buckets[0])
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
