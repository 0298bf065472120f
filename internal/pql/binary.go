package pql

import "github.com/prometheus/prometheus/promql/parser"

// Match is how a binary operation matches its sides' series.
type Match struct {
	on, ignoring bool
	labels       []string
	card         parser.VectorMatchCardinality
	include      []string
	returnBool   bool
}

// On matches on the labels given (none: on (), every series with every
// series); Ignoring on all labels but them.
func On(ls ...string) Match       { return Match{on: true, labels: grouping(ls)} }
func Ignoring(ls ...string) Match { return Match{ignoring: true, labels: grouping(ls)} }

// GroupLeft and GroupRight make the match many-to-one or one-to-many,
// copying include from the one side.
func (m Match) GroupLeft(include ...string) Match {
	m.card, m.include = parser.CardManyToOne, grouping(include)
	return m
}

func (m Match) GroupRight(include ...string) Match {
	m.card, m.include = parser.CardOneToMany, grouping(include)
	return m
}

// Bool makes a comparison return 0 or 1 instead of filtering.
var Bool = Match{returnBool: true}

// Binary operators. Each parenthesises a side whose operator binds less
// tightly than its own (or as tightly, on the right of a left-associative
// one), so that the printed query means the tree.
func Add(l, r Expr, m ...Match) Expr    { return Binary(parser.ADD, l, r, m...) }
func Sub(l, r Expr, m ...Match) Expr    { return Binary(parser.SUB, l, r, m...) }
func Mul(l, r Expr, m ...Match) Expr    { return Binary(parser.MUL, l, r, m...) }
func Div(l, r Expr, m ...Match) Expr    { return Binary(parser.DIV, l, r, m...) }
func Gt(l, r Expr, m ...Match) Expr     { return Binary(parser.GTR, l, r, m...) }
func Ge(l, r Expr, m ...Match) Expr     { return Binary(parser.GTE, l, r, m...) }
func Lt(l, r Expr, m ...Match) Expr     { return Binary(parser.LSS, l, r, m...) }
func Le(l, r Expr, m ...Match) Expr     { return Binary(parser.LTE, l, r, m...) }
func EqOp(l, r Expr, m ...Match) Expr   { return Binary(parser.EQLC, l, r, m...) }
func NeqOp(l, r Expr, m ...Match) Expr  { return Binary(parser.NEQ, l, r, m...) }
func And(l, r Expr, m ...Match) Expr    { return Binary(parser.LAND, l, r, m...) }
func Or(l, r Expr, m ...Match) Expr     { return Binary(parser.LOR, l, r, m...) }
func Unless(l, r Expr, m ...Match) Expr { return Binary(parser.LUNLESS, l, r, m...) }

// Binary is l op r.
func Binary(op parser.ItemType, l, r Expr, m ...Match) *parser.BinaryExpr {
	b := &parser.BinaryExpr{Op: op, LHS: side(op, l, false), RHS: side(op, r, true)}
	var mt Match
	if len(m) > 0 {
		mt = m[0]
	}
	b.ReturnBool = mt.returnBool
	if isVector(l) && isVector(r) {
		b.VectorMatching = &parser.VectorMatching{
			Card: mt.card, MatchingLabels: mt.labels, On: mt.on, Include: mt.include,
		}
		if op.IsSetOperator() {
			b.VectorMatching.Card = parser.CardManyToMany
		}
	}
	return b
}

func isVector(e Expr) bool { return e.Type() == parser.ValueTypeVector }

// side parenthesises an operand that would otherwise bind to a
// neighbour: a looser operator, or on the right an equally tight
// left-associative one (a - (b - c)); ^ is right-associative.
func side(op parser.ItemType, e Expr, right bool) Expr {
	b, ok := unwrap(e).(*parser.BinaryExpr)
	if !ok {
		return e
	}
	p, q := precedence[b.Op], precedence[op]
	switch {
	case p < q,
		p == q && right && op != parser.POW,
		p == q && !right && op == parser.POW:
		return Paren(e)
	}
	return e
}

// precedence is how tightly each binary operator binds, as Prometheus's
// grammar has it.
var precedence = map[parser.ItemType]int{
	parser.LOR: 1, parser.LAND: 2, parser.LUNLESS: 2,
	parser.EQLC: 3, parser.NEQ: 3, parser.LTE: 3, parser.LSS: 3, parser.GTE: 3, parser.GTR: 3,
	parser.ADD: 4, parser.SUB: 4,
	parser.MUL: 5, parser.DIV: 5, parser.MOD: 5, parser.ATAN2: 5,
	parser.POW: 6,
}
