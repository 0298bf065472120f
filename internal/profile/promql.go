package profile

import (
	"github.com/prometheus/prometheus/promql/parser"

	slomodel "github.com/slogen-dev/slogen/internal/model"
)

// The SLI expressions are built as syntax trees, the way Prometheus's
// parser would build them from their text, so nothing after this package
// has to parse PromQL that slogen wrote.

// selector is a metric selector with the scope's matchers; label values
// are quoted and escaped when the tree is printed.
func (s Scope) selector(sel Selector) *parser.VectorSelector {
	return slomodel.Selector{Name: sel.Name, Matchers: sel.Matchers}.With(s.matchers(sel.Name, sel.HasModel)...)
}

// sumRate is sum(rate(vs[BaseWindow])), the events per second of a
// counter; of a native histogram, sum(histogram_count(rate(...))), its
// observations per second.
func sumRate(vs *parser.VectorSelector, native bool) parser.Expr {
	var rate parser.Expr = call("rate", &parser.MatrixSelector{VectorSelector: vs, Range: slomodel.BaseWindow})
	if native {
		rate = call("histogram_count", rate)
	}
	return sum(rate)
}

func sum(e parser.Expr) parser.Expr {
	return &parser.AggregateExpr{Op: parser.SUM, Expr: e}
}

func call(name string, args ...parser.Expr) *parser.Call {
	return &parser.Call{Func: parser.Functions[name], Args: args}
}

func number(v float64) parser.Expr { return &parser.NumberLiteral{Val: v} }

// orZero is (e or vector(0)): e, or zero while e has no series.
func orZero(e parser.Expr) parser.Expr {
	return &parser.ParenExpr{Expr: binary(parser.LOR, e, call("vector", number(0)))}
}

// binary joins two vectors as the parser does: one-to-one matching for
// arithmetic, many-to-many for the set operators.
func binary(op parser.ItemType, lhs, rhs parser.Expr) parser.Expr {
	card := parser.CardOneToOne
	if op.IsSetOperator() {
		card = parser.CardManyToMany
	}
	return &parser.BinaryExpr{Op: op, LHS: lhs, RHS: rhs, VectorMatching: &parser.VectorMatching{Card: card}}
}
