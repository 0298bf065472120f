package rules

import (
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// BoundRatios are each bound's share of a goodput SLO's requests that
// miss it, over w, split by the SLO's group_by labels as its recordings
// are and narrowed by the matchers given. The SLI adds them up, the upper
// bound of the share of bad requests; the largest of them is the lower.
func BoundRatios(slo model.SLO, w time.Duration, narrow ...*labels.Matcher) []pql.Expr {
	var out []pql.Expr
	for _, p := range slo.SLI.Parts {
		bound := slo
		bound.SLI = p
		errs, reqs := groupedSLI(bound)
		out = append(out, pql.Div(pql.Paren(narrowed(Rewindow(errs, w, 0), narrow)), pql.Paren(narrowed(Rewindow(reqs, w, 0), narrow))))
	}
	return out
}

// narrowed adds the matchers to every selector of e, in place.
func narrowed(e parser.Expr, ms []*labels.Matcher) parser.Expr {
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			vs.LabelMatchers = append(vs.LabelMatchers, ms...)
		}
		return nil
	})
	return e
}
