package rules

import (
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// groupedSLI is the SLO's errors and requests trees, copied, split by its
// group_by labels: every outermost aggregation keeps them. The trees of an
// SLO without group_by are plain copies.
//
// A failure counter's series appear with the first failure, so the
// ungrouped SLI reads zero in their place (or vector(0)). vector(0) has no
// labels to group by, so a grouped SLI reads zero for every group its
// requests have: group by (…) (their raw series) * 0. Without it a group
// that never failed would record no errors, and averaging the error rate
// over a long window would count only the stretch since its first failure.
func groupedSLI(slo model.SLO) (errs, reqs parser.Expr) {
	errs, reqs = pql.Copy(slo.SLI.Errors), pql.Copy(slo.SLI.Requests)
	if len(slo.GroupBy) == 0 {
		return errs, reqs
	}
	zero := func() parser.Expr {
		return pql.Mul(pql.Group(anyOf(slo.SLI.Requests), pql.By(slo.GroupBy...)), pql.Num(0))
	}
	return groupBy(errs, slo.GroupBy, zero), groupBy(reqs, slo.GroupBy, zero)
}

// groupBy gives the outermost aggregations of e the grouping by, and puts
// zero() in place of every vector(0) outside them. Aggregations inside
// an aggregation, a ratio SLO's own, are the user's and keep theirs.
func groupBy(e parser.Expr, by []string, zero func() parser.Expr) parser.Expr {
	switch n := e.(type) {
	case *parser.AggregateExpr:
		n.Grouping, n.Without = by, false
	case *parser.Call:
		if n.Func.Name == "vector" {
			return zero()
		}
		for i, a := range n.Args {
			n.Args[i] = groupBy(a, by, zero)
		}
	case *parser.BinaryExpr:
		n.LHS, n.RHS = groupBy(n.LHS, by, zero), groupBy(n.RHS, by, zero)
	case *parser.ParenExpr:
		n.Expr = groupBy(n.Expr, by, zero)
	case *parser.UnaryExpr:
		n.Expr = groupBy(n.Expr, by, zero)
	}
	return e
}
