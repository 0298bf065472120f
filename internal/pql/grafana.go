package pql

import (
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

// Grafana replaces its variables in a dashboard's query before Prometheus
// reads it. A variable in a matcher's value ($pod) is only a string to
// PromQL, and Re takes it as it is. A variable in place of a range
// ($__rate_interval, $__range) is not a duration, which is what a tree's
// range holds: GrafanaRange keeps a duration in the tree, a sentinel for
// whatever Grafana will pick, and prints the variable.

// GrafanaRange is v over the range a Grafana variable stands for, printed
// v[$__rate_interval]. Its tree is v[held]: held is the sentinel, the
// range that code walking or evaluating the tree reads in the variable's
// place (choose what Grafana would pick in the common case); Print never
// writes it. v is a plain selector: its offset or @ would print before
// the brackets, so one is a bug.
func GrafanaRange(v *parser.VectorSelector, variable string, held time.Duration) Expr {
	if v.OriginalOffset != 0 || v.Timestamp != nil || v.StartOrEnd != 0 {
		panic("pql.GrafanaRange: " + v.String() + " has a modifier")
	}
	m := &parser.MatrixSelector{VectorSelector: v, Range: held}
	return &laid{Expr: m, write: func(dst []byte) []byte { return append(append(append(Append(dst, v), '['), variable...), ']') }}
}

// LabelValues is Grafana's variable query label_values(v, label): the
// values label takes among v's series. It is Grafana's own syntax, not
// PromQL, so it is text; its selector is a tree.
func LabelValues(v *parser.VectorSelector, label string) string {
	return "label_values(" + Print(v) + ", " + label + ")"
}
