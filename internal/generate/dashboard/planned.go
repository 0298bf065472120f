package dashboard

import (
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// The panels that draw what an alert reads take the alert's own query
// from the plan and narrow it with the dashboard's filters, so that a
// panel and its alert cannot drift.

// memoryRatio is each GPU's used share of its memory as GPUMemoryHigh
// reads it, narrowed to the GPUs the variables pick.
func memoryRatio(s scope) pql.Expr {
	return narrowed(gpualerts.MemoryRatio(s.svc, s.gpuBase), s.gpuFilters())
}

// coldCacheLines are the prefix cache's hit ratio as PrefixCacheColdStart
// reads it, and the line below which it calls the cache cold.
func coldCacheLines(s scope) (ratio, coldBelow pql.Expr) {
	return gpualerts.ColdCacheLines(s.svc)
}

// baselines are the recordings of the same hour yesterday that the
// diagnosis alerts compare with.
func baselines(p gpualerts.Plan) []pql.Expr {
	var out []pql.Expr
	for _, b := range p.Baselines() {
		out = append(out, b)
	}
	return out
}

// boundRatios are a goodput SLO's bad share of requests per bound over w,
// as its rules compute them, narrowed to the picked values of its
// group_by labels.
func boundRatios(slo model.SLO, w time.Duration) []pql.Expr {
	var out []pql.Expr
	for _, r := range rules.BoundRatios(slo, w) {
		out = append(out, narrowed(r, groupNarrowing(slo)))
	}
	return out
}

// narrowed is a copy of e, without its layout, whose every selector also
// carries ms; the plan's own tree is left alone.
func narrowed(e pql.Expr, ms []*labels.Matcher) pql.Expr {
	c := pql.Copy(e)
	parser.Inspect(c, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			vs.LabelMatchers = append(vs.LabelMatchers, ms...)
		}
		return nil
	})
	return c
}
