package overview

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/spec"
)

// TestReadsOnlyWhatTheRulesRecord: every series the overview reads is one
// that the example fleet's rules (and a 7-day SLO's) record, by its exact
// name, or ALERTS, or a raw series that the services' alerts read (the
// KV cache and queue gauges), or dcgm-exporter's utilisation, which
// GPUUtilizationHigh reads too (see gpuUtilisation).
func TestReadsOnlyWhatTheRulesRecord(t *testing.T) {
	svcs := append(exampleFleet(t), load(t, "two.cue", twoTeams)...)
	recorded := map[string]bool{"ALERTS": true, dcgm.GPUUtil: true}
	for _, svc := range svcs {
		local, global := rules.SplitFleet(svc, "slogen-kind")
		gpu := gpualerts.NewPlan(svc)
		for _, a := range gpu.Alerts {
			if a.From != "" {
				recorded[a.From] = true // the raw series an alert reads
			}
		}
		for _, g := range append(append(local, global...), gpualerts.Build(gpu)...) {
			for _, r := range g.Rules {
				recorded[r.Record] = true
			}
		}
	}
	d := build(t, svcs)
	all := grafanatest.AllPicked(d)
	var read []string
	for _, q := range grafanatest.Queries(d) {
		e, err := promcompat.Parser().ParseExpr(grafanatest.Expand(q.Expr, all))
		if err != nil {
			t.Fatal(err)
		}
		parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
			if s, ok := n.(*parser.VectorSelector); ok && !slices.Contains(read, s.Name) {
				read = append(read, s.Name)
				if !recorded[s.Name] {
					t.Errorf("panel %q reads %s, which no rule records", q.Panel, s.Name)
				}
			}
			return nil
		})
	}
	t.Logf("reads %v", read)
}

// TestGPUsAreNamedAsTheMemoryRecordingNamesThem: under every DCGM mapping
// of the examples, the labels the utilisation joins on are the ones
// slogen:gpu_memory_used:ratio keeps.
func TestGPUsAreNamedAsTheMemoryRecordingNamesThem(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*.cue"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := spec.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	mappings := map[string]bool{}
	for _, svc := range res.Spec.Services {
		mappings[svc.DCGM.Mapping] = true
		for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
			for _, r := range g.Rules {
				if r.Record != gpualerts.MemoryUsedRatio {
					continue
				}
				agg, ok := r.Expr.(*parser.AggregateExpr)
				if id := identityOf(svc); !ok || !slices.Equal(agg.Grouping, id.labels) || !slices.Contains(id.labels, id.owner) {
					t.Errorf("%s records %s by %v, the overview joins its GPUs on %v", svc.Name, r.Record, r.Expr, id)
				}
			}
		}
	}
	if !mappings[model.MappingPod] || !mappings[model.MappingHost] {
		t.Errorf("the examples use the mappings %v, not both", mappings)
	}
}
