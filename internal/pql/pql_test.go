package pql

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

// means checks that e prints as want and that the printed text parses to
// e's own tree: a layout changes the text, never the tree.
func means(t *testing.T, e Expr, want string) {
	t.Helper()
	got := Print(e)
	if got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	parsed, err := parser.NewParser(parser.Options{}).ParseExpr(got)
	if err != nil {
		t.Fatalf("%s does not parse: %v", got, err)
	}
	if parsed.String() != Strip(e).String() {
		t.Errorf("%s parses to\n%s\nnot the tree\n%s", got, parsed, Strip(e))
	}
}

func TestPrecedenceParenthesises(t *testing.T) {
	a, b, c := Metric("a"), Metric("b"), Metric("c")
	means(t, Div(a, Add(b, c)), "a / (b + c)")
	means(t, Sub(a, Sub(b, c)), "a - (b - c)")
	means(t, Sub(Sub(a, b), c), "a - b - c")
	means(t, Gt(Div(a, b), Num(0.5)), "a / b > 0.5")
	means(t, And(Or(a, b), c), "(a or b) and c")
	means(t, Mul(Sum(Rate(a, 5*time.Minute)), Num(60)), "sum(rate(a[5m])) * 60")
}

func TestSelectorsAndCalls(t *testing.T) {
	x := Metric("DCGM_FI_DEV_XID_ERRORS", Eq("job", "dcgm-exporter"), Re("exported_pod", "chat-.*"))
	means(t, Call("last_over_time", Offset(Range(x, time.Hour), 5*time.Minute)),
		`last_over_time(DCGM_FI_DEV_XID_ERRORS{exported_pod=~"chat-.*",job="dcgm-exporter"}[1h] offset 5m)`)
	means(t, Max(x, By("gpu", "UUID")), `max by (gpu, UUID) (DCGM_FI_DEV_XID_ERRORS{exported_pod=~"chat-.*",job="dcgm-exporter"})`)
	means(t, Div(Metric("a"), Sci(1e9)), "a / 1e9")
	means(t, Unless(Metric("a"), Metric("b"), On("UUID", "err_code")), "a unless on (UUID, err_code) b")
	means(t, Quantile(0.99, Metric("a")), "quantile(0.99, a)")
}

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
