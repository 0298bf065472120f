package pql

import "github.com/prometheus/prometheus/promql/parser"

// Agg is an aggregation. With no labels it aggregates everything; with
// labels, by them (or, with Without, all but them).
type Agg struct {
	op      parser.ItemType
	by      []string
	without bool
}

// By groups by labels; Without by all labels but them.
func By(ls ...string) Agg      { return Agg{by: grouping(ls)} }
func Without(ls ...string) Agg { return Agg{by: grouping(ls), without: true} }

// Sum, Max, Min, Avg, Count and Group aggregate e by g (none: everything).
func Sum(e Expr, g ...Agg) Expr   { return aggregate(parser.SUM, e, g) }
func Max(e Expr, g ...Agg) Expr   { return aggregate(parser.MAX, e, g) }
func Min(e Expr, g ...Agg) Expr   { return aggregate(parser.MIN, e, g) }
func Avg(e Expr, g ...Agg) Expr   { return aggregate(parser.AVG, e, g) }
func Count(e Expr, g ...Agg) Expr { return aggregate(parser.COUNT, e, g) }
func Group(e Expr, g ...Agg) Expr { return aggregate(parser.GROUP, e, g) }

// Quantile and TopK take a parameter.
func Quantile(q float64, e Expr, g ...Agg) Expr {
	a := aggregate(parser.QUANTILE, e, g)
	a.Param = Num(q)
	return a
}

func aggregate(op parser.ItemType, e Expr, g []Agg) *parser.AggregateExpr {
	a := &parser.AggregateExpr{Op: op, Expr: e}
	if len(g) > 0 {
		a.Grouping, a.Without = g[0].by, g[0].without
	}
	return a
}
