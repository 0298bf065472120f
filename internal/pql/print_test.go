package pql

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

// TestAppendPrintsAsPrometheus holds Append to Prometheus's printer over
// every kind of node, parsed: what Append writes itself and what it hands
// over.
func TestAppendPrintsAsPrometheus(t *testing.T) {
	for _, q := range []string{
		`up`,
		`vllm:num_requests_running{namespace="a",job="b",model_name="meta-llama/Llama-3.1-8B-Instruct"}`,
		`{__name__="up",job=~"a|b",x!="y\"z",w!~".*"}`,
		`{"utf8.name"="x",job="a"}`,
		`rate(http_requests_total{job="a",status="5xx"}[5m] offset 1h)`,
		`max_over_time(up[1d:5m] offset -10m)`,
		`avg_over_time((a / b)[30m:])`,
		`sum by (service, slo) (rate(a_bucket{le="1.0"}[5m]))`,
		`sum without (le) (a) / on (service) group_left (team, "odd.label") b`,
		`a * ignoring (le) group_right () b`,
		`a > bool 0.001`,
		`count_values("value", a)`,
		`topk(5, a)`,
		`quantile(0.99, a)`,
		`-a + +b`,
		`clamp_min(a - on () b, 0)`,
		`label_replace(a, "dst", "$1", "src", "(.*)")`,
		`absent_over_time(a[1h])`,
		`(a or vector(0)) unless b`,
		`1e-05 * 1e+21 - 123456789.25`,
		`a @ 1000`,
		`a[5m] @ end()`,
		`a[5m:1m] @ start()`,
		`time() - a offset 5m`,
	} {
		e, err := parser.NewParser(parser.Options{}).ParseExpr(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got, want := string(Append(nil, e)), e.String(); got != want {
			t.Errorf("Append(%s) =\n%s\nPrometheus prints\n%s", q, got, want)
		}
	}
}

// TestAppendWritesLayoutsInsideTrees checks the trees slogen builds: a
// layout under a node, and the node under a layout.
func TestAppendWritesLayoutsInsideTrees(t *testing.T) {
	a, b := Metric("a", Eq("z", "1"), Eq("y", "2")), Metric("b")
	for _, e := range []Expr{
		Sum(Block(Chain(parser.LAND, Match{}, Gt(a, Num(1)), Gt(b, Decimal("0.10")))), By("gpu")),
		Div(Rate(a, 5*time.Minute), RangeSeconds(b, 90*time.Second)),
		Max(Spread(Chain(parser.LOR, On(), a, b))),
		Tight(Div(a, Paren(b), On().GroupLeft())),
	} {
		if got, want := string(Append([]byte("x"), e)), "x"+e.String(); got != want {
			t.Errorf("Append =\n%s\nString is\n%s", got, want)
		}
	}
}
