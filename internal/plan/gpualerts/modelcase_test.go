package gpualerts_test

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// Dynamo's frontend writes the model lower-cased on its request metrics
// and as given elsewhere: each selector slogen writes, in the SLIs and in
// the serving alerts, matches the model as the runtime writes it there.
func TestModelMatchersFollowTheRuntimesCase(t *testing.T) {
	svc := fixture(t, "dynamo")
	var exprs []parser.Expr
	for _, slo := range svc.SLOs {
		exprs = append(exprs, slo.SLI.Errors, slo.SLI.Requests)
	}
	for _, r := range gpualerts.Build(gpualerts.NewPlan(svc))[0].Rules {
		exprs = append(exprs, r.Expr)
	}
	want := map[string]string{
		"dynamo_frontend_requests_total":                     "qwen/qwen3-0.6b",
		"dynamo_frontend_time_to_first_token_seconds_count":  "qwen/qwen3-0.6b",
		"dynamo_frontend_time_to_first_token_seconds_bucket": "qwen/qwen3-0.6b",
		"dynamo_frontend_queued_requests":                    "qwen/qwen3-0.6b",
		"dynamo_component_gpu_cache_usage_percent":           "Qwen/Qwen3-0.6B",
	}
	seen := map[string]bool{}
	for _, e := range exprs {
		for _, vs := range pql.Selectors(e) {
			for _, m := range vs.LabelMatchers {
				if m.Name != "model" {
					continue
				}
				if m.Type != labels.MatchEqual || want[vs.Name] != "" && m.Value != want[vs.Name] {
					t.Errorf("%s selects model %s %q, want = %q", vs.Name, m.Type, m.Value, want[vs.Name])
				}
				seen[vs.Name] = true
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("no selector of %s with a model matcher", name)
		}
	}
}
