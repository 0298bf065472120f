package pql

import (
	"fmt"
	"slices"

	"github.com/prometheus/prometheus/promql/parser"
)

// Copy is a deep copy of a syntax tree without its layouts: a tree of the
// parser's own nodes, for code that rewrites one (another window, a
// recording in place of a subquery, more matchers) without touching the
// original, or walks it with the parser's functions. Label matchers are
// shared: nothing changes them.
func Copy(e parser.Expr) parser.Expr {
	switch e := unwrap(e).(type) {
	case nil:
		return nil
	case *parser.AggregateExpr:
		c := *e
		c.Expr, c.Param, c.Grouping = Copy(e.Expr), Copy(e.Param), slices.Clone(e.Grouping)
		return &c
	case *parser.BinaryExpr:
		c := *e
		c.LHS, c.RHS = Copy(e.LHS), Copy(e.RHS)
		if e.VectorMatching != nil {
			vm := *e.VectorMatching
			vm.MatchingLabels, vm.Include = slices.Clone(vm.MatchingLabels), slices.Clone(vm.Include)
			c.VectorMatching = &vm
		}
		return &c
	case *parser.Call:
		c := *e
		c.Args = make(parser.Expressions, len(e.Args))
		for i, a := range e.Args {
			c.Args[i] = Copy(a)
		}
		return &c
	case *parser.MatrixSelector:
		c := *e
		c.VectorSelector = Copy(e.VectorSelector)
		return &c
	case *parser.SubqueryExpr:
		c := *e
		c.Expr = Copy(e.Expr)
		return &c
	case *parser.ParenExpr:
		c := *e
		c.Expr = Copy(e.Expr)
		return &c
	case *parser.UnaryExpr:
		c := *e
		c.Expr = Copy(e.Expr)
		return &c
	case *parser.StepInvariantExpr:
		c := *e
		c.Expr = Copy(e.Expr)
		return &c
	case *parser.VectorSelector:
		c := *e
		c.LabelMatchers = slices.Clone(e.LabelMatchers)
		return &c
	case *parser.DurationExpr:
		c := *e
		c.LHS, c.RHS = Copy(e.LHS), Copy(e.RHS)
		return &c
	case *parser.NumberLiteral:
		c := *e
		return &c
	case *parser.StringLiteral:
		c := *e
		return &c
	}
	// Every node type of the parser slogen builds with is above; a new one
	// must be added there before the parser can make it.
	panic(fmt.Sprintf("pql.Copy: unknown node %T", e))
}
