package pql

import (
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

// laid is a tree with its own layout over lines. It is an Expr, so it
// nests in any other node, and prints as the layout; the tree under it
// is what Copy and Selectors see.
type laid struct {
	parser.Expr
	write func(dst []byte) []byte // appends the layout's text
}

func (l *laid) String() string { return string(l.write(nil)) }

func (l *laid) appendTo(dst []byte) []byte { return l.write(dst) }

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
//
// One operand is a chain of itself: a condition with one or more
// alternatives (a burn alert's tiers, the no-data alert's SLOs) is one
// chain however many it has.
func Chain(op parser.ItemType, m Match, operands ...Expr) *Chained {
	tree := operands[0]
	for _, o := range operands[1:] {
		tree = Binary(op, tree, o, m)
	}
	c := &Chained{operands: operands}
	if b, ok := tree.(*parser.BinaryExpr); ok && len(operands) > 1 {
		c.op = b.Op.String() + opSuffix(b)
	}
	c.laid = laid{Expr: tree, write: c.print}
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

func (c *Chained) print(dst []byte) []byte {
	for i, o := range c.operands {
		switch {
		case i == 0:
		case c.lead:
			dst = append(append(append(dst, '\n'), c.op...), ' ')
		default:
			dst = append(append(append(dst, '\n'), c.op...), '\n')
		}
		dst = Append(append(dst, c.indentOf(i)...), o)
	}
	return dst
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
	return &laid{Expr: p, write: func(dst []byte) []byte { return append(c.print(append(dst, "(\n"...)), "\n)"...) }}
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
	return &laid{Expr: &c.laid, write: func(dst []byte) []byte { return append(c.print(append(dst, '\n')), '\n') }}
}

// Tight writes a binary operation's matching with no space before its
// parentheses, a / on() group_left() b, as Grafana's query editor and
// many hand-written queries have it; Prometheus's printer writes
// on () group_left (). The tree is the operation's.
func Tight(e Expr) Expr {
	b, ok := unwrap(e).(*parser.BinaryExpr)
	if !ok {
		panic("pql.Tight: not a binary operation")
	}
	return &laid{Expr: e, write: func(dst []byte) []byte {
		dst = append(append(Append(dst, b.LHS), ' '), b.Op.String()...)
		return Append(append(append(dst, tightMatching(b)...), ' '), b.RHS)
	}}
}

// tightMatching is what follows the operator: bool, on(...),
// group_left(...).
func tightMatching(b *parser.BinaryExpr) string {
	var s strings.Builder
	if b.ReturnBool {
		s.WriteString(" bool")
	}
	vm := b.VectorMatching
	if vm == nil {
		return s.String()
	}
	grouped := vm.Card == parser.CardManyToOne || vm.Card == parser.CardOneToMany
	if vm.On || len(vm.MatchingLabels) > 0 || grouped {
		tag := "ignoring"
		if vm.On {
			tag = "on"
		}
		s.WriteString(" " + tag + "(" + strings.Join(vm.MatchingLabels, ", ") + ")")
	}
	switch vm.Card {
	case parser.CardManyToOne:
		s.WriteString(" group_left(" + strings.Join(vm.Include, ", ") + ")")
	case parser.CardOneToMany:
		s.WriteString(" group_right(" + strings.Join(vm.Include, ", ") + ")")
	}
	return s.String()
}
