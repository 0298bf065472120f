package dashboard

import (
	"path/filepath"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// Dynamo writes the model lower-cased on its frontend's request metrics
// and as given on the workers' KV gauge: both the service's dashboard and
// its kind's dashboard, whose model comes from a variable holding the
// spec's spelling, match each metric's series and no other model's.
func TestDashboardsMatchTheModelAsTheRuntimeWritesIt(t *testing.T) {
	svc := services(t, filepath.Join("..", "..", "..", "examples", "dynamo", "qwen-dynamo.cue"))[0]
	own, err := Build(plan.New(svc))
	if err != nil {
		t.Fatal(err)
	}
	kind, _ := buildKind(t, svc)
	written := map[string]string{
		"dynamo_frontend_requests_total":           "qwen/qwen3-0.6b",
		"dynamo_frontend_queued_requests":          "qwen/qwen3-0.6b",
		"dynamo_component_gpu_cache_usage_percent": "Qwen/Qwen3-0.6B",
	}
	for name, queries := range map[string]map[string]string{
		"service": everyQuery(own, AllSelected(own, "1m")),
		"kind":    everyQuery(kind, kindValues(t, kind, svc)),
	} {
		seen := map[string]bool{}
		for what, q := range queries {
			e, err := promcompat.Parser().ParseExpr(q)
			if err != nil {
				t.Fatalf("%s, %s: %v", name, what, err)
			}
			parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
				vs, ok := n.(*parser.VectorSelector)
				if !ok || written[vs.Name] == "" {
					return nil
				}
				for _, m := range vs.LabelMatchers {
					if m.Name != "model" {
						continue
					}
					seen[vs.Name] = true
					if !m.Matches(written[vs.Name]) || m.Matches("other-model") {
						t.Errorf("%s dashboard, %s: %s matches model %s, not %q alone", name, what, vs.Name, m, written[vs.Name])
					}
				}
				return nil
			})
		}
		for metric := range written {
			if !seen[metric] {
				t.Errorf("%s dashboard: no query matches %s's model", name, metric)
			}
		}
	}
}
