package pql

import (
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"
)

// Decimal is a number written as text says: an objective as its spec
// wrote it, or a float as Go's %g writes it (1e-05), where Num would
// write 0.00001. Its tree holds the number; text that is not a number is
// a bug.
func Decimal(text string) Expr {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		panic("pql.Decimal: " + err.Error())
	}
	return &laid{Expr: Num(f), text: func() string { return text }}
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
	return &laid{Expr: e, text: func() string {
		return b.LHS.String() + " " + b.Op.String() + tightMatching(b) + " " + b.RHS.String()
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
