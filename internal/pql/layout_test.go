package pql

import (
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
)

func TestChainsLayOutOverLines(t *testing.T) {
	a, b, c := Metric("a"), Metric("b"), Metric("c")
	means(t, Chain(parser.LOR, On(), Gt(Count(a), Num(0)), Max(Call("absent", b))),
		"count(a) > 0\nor on ()\nmax(absent(b))")
	means(t, Block(Chain(parser.LAND, Match{}, Gt(a, Num(1)), Gt(b, Num(1)), Ge(Mul(c, Num(3600)), Num(100)))),
		"(\n  a > 1\nand\n  b > 1\nand\n  c * 3600 >= 100\n)")
	means(t, Max(Spread(Chain(parser.LAND, Match{}, Gt(a, Num(0)), Paren(Or(b, c)))), By("gpu")),
		"max by (gpu) (\n  a > 0\nand\n  (b or c)\n)")
	means(t, Chain(parser.LAND, Match{}, Chain(parser.GTR, Match{}, a, b).Lead(), Paren(Chain(parser.LOR, Match{}, b, c))),
		"a\n> b\nand\n(b\nor\nc)")
	means(t, Chain(parser.LAND, On(), Block(Chain(parser.LUNLESS, Match{}, a, b)), Group(c)).Indent("", "  "),
		"(\n  a\nunless\n  b\n)\nand on ()\n  group(c)")
}

func TestAChainOfOneIsItsOperand(t *testing.T) {
	a, b := Gt(Metric("a"), Num(1)), Gt(Metric("b"), Num(1))
	means(t, Chain(parser.LOR, Match{}, a), "a > 1")
	means(t, Chain(parser.LOR, Match{}, a, b), "a > 1\nor\nb > 1")
	means(t, Block(Chain(parser.LAND, Match{}, a)), "(\n  a > 1\n)")
}

func TestTightWritesMatchingWithoutSpaces(t *testing.T) {
	a, b := Sum(Metric("a"), By("err")), Sum(Metric("b"))
	means(t, Tight(Div(a, Paren(b), On().GroupLeft())), "sum by (err) (a) / on() group_left() (sum(b))")
	means(t, Tight(Div(Metric("a"), Metric("b"), Ignoring("le").GroupRight("x"))), "a / ignoring(le) group_right(x) b")
	means(t, Tight(Gt(Metric("a"), Num(1), Bool)), "a > bool 1")
	means(t, Tight(Div(Metric("a"), Metric("b"))), "a / b")
}
