// Package pql builds PromQL as Prometheus's own syntax trees, with a few
// typed helpers, so that a query is composed from parts, never from
// strings, and printed once, when a file is written. The trees are
// parser.Expr values: what slogen writes is what Prometheus's printer
// prints, and any part of it can be copied (Copy), walked or compared.
//
// The helpers parenthesise what precedence needs and nothing more; Paren
// adds what a reader needs. Chain, Block and Spread lay a long condition
// out over lines, as a person would write it in a rule file; the layout
// changes the text, never the tree.
package pql

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Expr is a PromQL syntax tree.
type Expr = parser.Expr

// Print is the query as it goes into a file.
func Print(e Expr) string { return string(Append(nil, e)) }

// Metric selects a metric by name and matchers. Prometheus prints the
// matchers sorted, quoted and escaped.
func Metric(name string, ms ...*labels.Matcher) *parser.VectorSelector {
	all := make([]*labels.Matcher, 0, len(ms)+1)
	all = append(append(all, ms...), labels.MustNewMatcher(labels.MatchEqual, labels.MetricName, name))
	return &parser.VectorSelector{Name: name, LabelMatchers: all}
}

// Range is a range selector over v, a vector selector, or a subquery of
// v at step (0: the global evaluation interval) when v is any other
// expression.
func Range(v Expr, d time.Duration, step ...time.Duration) Expr {
	if vs, ok := v.(*parser.VectorSelector); ok && len(step) == 0 {
		return &parser.MatrixSelector{VectorSelector: vs, Range: d}
	}
	sq := &parser.SubqueryExpr{Expr: v, Range: d}
	if len(step) > 0 {
		sq.Step = step[0]
	}
	return sq
}

// RangeSeconds is Range(v, d), d cut to whole seconds, written in seconds
// ([86400s], not [1d]) for a query sent to a Prometheus API whose answer
// is read against the range asked. v has no offset.
func RangeSeconds(v *parser.VectorSelector, d time.Duration) Expr {
	secs := int64(d / time.Second)
	r := Range(v, time.Duration(secs)*time.Second)
	return &laid{Expr: r, write: func(dst []byte) []byte {
		return append(strconv.AppendInt(append(Append(dst, v), '['), secs, 10), "s]"...)
	}}
}

// Offset moves a selector, range selector or subquery back by d.
func Offset(e Expr, d time.Duration) Expr {
	switch e := e.(type) {
	case *parser.VectorSelector:
		c := *e
		c.OriginalOffset = d
		return &c
	case *parser.MatrixSelector:
		c := *e
		c.VectorSelector = Offset(e.VectorSelector, d)
		return &c
	case *parser.SubqueryExpr:
		c := *e
		c.OriginalOffset = d
		return &c
	}
	panic(fmt.Sprintf("pql.Offset: %T cannot be offset", e))
}

// Call calls a PromQL function by name; an unknown name is a bug.
func Call(name string, args ...Expr) *parser.Call {
	f, ok := parser.Functions[name]
	if !ok {
		panic("pql.Call: no PromQL function " + name)
	}
	return &parser.Call{Func: f, Args: args}
}

// RangeCall calls a function of a range: rate(v[d]), increase(v[d]).
func RangeCall(name string, v Expr, d time.Duration) *parser.Call {
	return Call(name, Range(v, d))
}

// Rate is rate(v[d]).
func Rate(v Expr, d time.Duration) *parser.Call { return RangeCall("rate", v, d) }

// Increase is increase(v[d]).
func Increase(v Expr, d time.Duration) *parser.Call { return RangeCall("increase", v, d) }

// Str is a string literal, quoted and escaped by Prometheus's printer.
func Str(s string) *parser.StringLiteral { return &parser.StringLiteral{Val: s} }

// Paren parenthesises e.
func Paren(e Expr) *parser.ParenExpr { return &parser.ParenExpr{Expr: e} }

// Unparen is e without the parentheses around it, to read a parsed
// query's shape whatever brackets its author wrote.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*parser.ParenExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// grouping copies labels for a grouping or matching clause, in the order
// given: Prometheus prints them as written.
func grouping(ls []string) []string { return slices.Clone(ls) }
