package pql

import (
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

// laid is a tree with its own layout over lines. It is an Expr, so it
// nests in any other node, and prints as the layout; the tree under it
// is what Walk and Strip see.
type laid struct {
	parser.Expr
	text func() string
}

func (l *laid) String() string { return l.text() }

func (l *laid) tree() Expr { return l.Expr }

// layout is a laid, or a node that embeds one.
type layout interface{ tree() Expr }

// unwrap is the tree under any layouts at the top of e.
func unwrap(e Expr) Expr {
	for {
		l, ok := e.(layout)
		if !ok {
			return e
		}
		e = l.tree()
	}
}

// Chained is a chain of one operator over several operands, one per line.
type Chained struct {
	laid
	op       string
	operands []Expr
	indent   []string
	lead     bool
}

// Chain joins operands left to right with one operator, matching every
// pair as m says, and prints each operand on a line of its own with the
// operator, and its matching, on the line between:
//
//	a > 1
//	and on ()
//	b
func Chain(op parser.ItemType, m Match, operands ...Expr) *Chained {
	tree := operands[0]
	for _, o := range operands[1:] {
		tree = Binary(op, tree, o, m)
	}
	b := tree.(*parser.BinaryExpr)
	c := &Chained{op: b.Op.String() + opSuffix(b), operands: operands}
	c.laid = laid{Expr: tree, text: c.print}
	return c
}

// opSuffix is what follows the operator: bool, on (...), group_left (...).
func opSuffix(b *parser.BinaryExpr) string {
	full := (&parser.BinaryExpr{Op: b.Op, LHS: Num(0), RHS: Num(0), ReturnBool: b.ReturnBool, VectorMatching: b.VectorMatching}).String()
	return strings.TrimSuffix(strings.TrimPrefix(full, "0 "+b.Op.String()), " 0")
}

// Indent indents the operands' lines: one string for all of them, or
// one per operand.
func (c *Chained) Indent(ind ...string) *Chained {
	c.indent = ind
	return c
}

// Lead puts the operator at the start of its right operand's line
// (a\n> b) instead of on a line of its own.
func (c *Chained) Lead() *Chained {
	c.lead = true
	return c
}

func (c *Chained) print() string {
	var b strings.Builder
	for i, o := range c.operands {
		switch {
		case i == 0:
		case c.lead:
			b.WriteString("\n" + c.op + " ")
		default:
			b.WriteString("\n" + c.op + "\n")
		}
		b.WriteString(c.indentOf(i) + o.String())
	}
	return b.String()
}

func (c *Chained) indentOf(i int) string {
	switch len(c.indent) {
	case 0:
		return ""
	case 1:
		return c.indent[0]
	}
	return c.indent[i]
}

// Block parenthesises a chain over lines of its own, its operands
// indented by two spaces:
//
//	(
//	  a
//	and
//	  b
//	)
func Block(c *Chained) Expr {
	c.Indent("  ")
	p := Paren(&c.laid)
	return &laid{Expr: p, text: func() string { return "(\n" + c.print() + "\n)" }}
}

// Spread lays a chain out as Block does but without the parentheses, for
// the argument of an aggregation, whose own parentheses close it:
//
//	max by (gpu) (
//	  a
//	and
//	  b
//	)
func Spread(c *Chained) Expr {
	c.Indent("  ")
	return &laid{Expr: &c.laid, text: func() string { return "\n" + c.print() + "\n" }}
}

// Sci is a number written with an exponent, as a reader reads it best:
// 1e9 nanoseconds in a second.
func Sci(f float64) Expr {
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	n, _ := strconv.Atoi(exp)
	return &laid{Expr: Num(f), text: func() string { return mant + "e" + strconv.Itoa(n) }}
}
