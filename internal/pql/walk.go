package pql

import (
	"fmt"

	"github.com/prometheus/prometheus/promql/parser"
)

// Strip is e's tree without its layouts: a tree of the parser's own
// nodes, for code that walks it with the parser's functions. It copies
// only what holds a layout.
func Strip(e Expr) Expr {
	switch e := unwrap(e).(type) {
	case *parser.AggregateExpr:
		c := *e
		c.Expr, c.Param = Strip(e.Expr), strip(e.Param)
		return &c
	case *parser.BinaryExpr:
		c := *e
		c.LHS, c.RHS = Strip(e.LHS), Strip(e.RHS)
		return &c
	case *parser.Call:
		c := *e
		c.Args = make(parser.Expressions, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = Strip(a)
		}
		return &c
	case *parser.SubqueryExpr:
		c := *e
		c.Expr = Strip(e.Expr)
		return &c
	case *parser.ParenExpr:
		c := *e
		c.Expr = Strip(e.Expr)
		return &c
	case *parser.UnaryExpr:
		c := *e
		c.Expr = Strip(e.Expr)
		return &c
	case *parser.MatrixSelector, *parser.VectorSelector, *parser.NumberLiteral, *parser.StringLiteral:
		return e
	default:
		panic(fmt.Sprintf("pql.Strip: unknown node %T", e))
	}
}

func strip(e Expr) Expr {
	if e == nil {
		return nil
	}
	return Strip(e)
}

// Selectors are the vector selectors of e, in the order printed.
func Selectors(e Expr) []*parser.VectorSelector {
	var out []*parser.VectorSelector
	parser.Inspect(Strip(e), func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			out = append(out, vs)
		}
		return nil
	})
	return out
}
