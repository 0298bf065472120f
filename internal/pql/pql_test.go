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
	if parsed.String() != Copy(e).String() {
		t.Errorf("%s parses to\n%s\nnot the tree\n%s", got, parsed, Copy(e))
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
	means(t, Div(Metric("a"), Decimal("1e9")), "a / 1e9")
	means(t, Unless(Metric("a"), Metric("b"), On("UUID", "err_code")), "a unless on (UUID, err_code) b")
	means(t, Quantile(0.99, Metric("a")), "quantile(0.99, a)")
}

func TestRangeSecondsWritesWholeSeconds(t *testing.T) {
	means(t, RangeSeconds(Metric("up", Eq("job", "a")), 24*time.Hour+1500*time.Millisecond), `up{job="a"}[86401s]`)
}
