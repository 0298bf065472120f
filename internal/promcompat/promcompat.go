// Package promcompat checks generated PromQL and rule files against the
// oldest Prometheus slogen supports, 2.42 (Debian 12's promtool): its
// function set, legacy metric and label names, and rulefmt.
package promcompat

import (
	"fmt"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

// functions242 are the PromQL functions Prometheus 2.42 knows. Newer ones
// (first_over_time, histogram_avg, sort_by_label, …) fail there with
// "unknown function".
var functions242 = []string{
	"abs", "absent", "absent_over_time", "acos", "acosh", "asin", "asinh", "atan", "atanh",
	"avg_over_time", "ceil", "changes", "clamp", "clamp_max", "clamp_min", "cos", "cosh",
	"count_over_time", "day_of_month", "day_of_week", "day_of_year", "days_in_month", "deg",
	"delta", "deriv", "exp", "floor", "histogram_count", "histogram_fraction",
	"histogram_quantile", "histogram_sum", "holt_winters", "hour", "idelta", "increase",
	"irate", "label_join", "label_replace", "last_over_time", "ln", "log10", "log2",
	"max_over_time", "min_over_time", "minute", "month", "pi", "predict_linear",
	"present_over_time", "quantile_over_time", "rad", "rate", "resets", "round", "scalar",
	"sgn", "sin", "sinh", "sort", "sort_desc", "sqrt", "stddev_over_time", "stdvar_over_time",
	"sum_over_time", "tan", "tanh", "time", "timestamp", "vector", "year",
}

// Parser parses PromQL as Prometheus 2.42 would: a function 2.42 lacks is
// an "unknown function" error. (holt_winters is 2.42-only and absent from
// the current parser; slogen never writes it.) Parsers are stateless, so
// one is shared.
func Parser() parser.Parser { return parser242 }

var parser242 = func() parser.Parser {
	fns := map[string]*parser.Function{}
	for _, name := range functions242 {
		if f, ok := parser.Functions[name]; ok {
			fns[name] = f
		}
	}
	return parser.NewParser(parser.Options{Functions: fns})
}()

// CheckRules parses a rule file as Prometheus 2.42 would: legacy names,
// the 2.42 function set, no unknown fields. It returns every problem.
// Tests run it on every runtime's generated files.
func CheckRules(name string, content []byte) []error {
	groups, errs := rulefmt.Parse(content, false, model.LegacyValidation, Parser(), promslog.NewNopLogger())
	if len(errs) > 0 {
		return prefix(name, errs)
	}
	var out []error
	for _, g := range groups.Groups {
		if len(g.Labels) > 0 || g.QueryOffset != nil {
			out = append(out, fmt.Errorf("%s: group %q: labels and query_offset are unknown to Prometheus 2.42", name, g.Name))
		}
	}
	return out
}

func prefix(name string, errs []error) []error {
	out := make([]error, len(errs))
	for i, err := range errs {
		out[i] = fmt.Errorf("%s: %w", name, err)
	}
	return out
}

// LegacyNames reports the metric and label names in an expression that
// Prometheus 2.42 cannot read, wherever the expression names them: in
// selectors, by/without, on/ignoring and group_left/group_right. 2.42
// knows only names of letters, digits and underscores (and colons, in
// metric names), not quoted UTF-8 ones.
func LegacyNames(e parser.Expr) error {
	var bad []string
	labels := func(names ...string) {
		for _, n := range names {
			if !LegacyLabelName(n) {
				bad = append(bad, fmt.Sprintf("label name %q", n))
			}
		}
	}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		switch n := n.(type) {
		case *parser.VectorSelector:
			for _, m := range n.LabelMatchers {
				labels(m.Name)
				if m.Name == model.MetricNameLabel && !LegacyMetricName(m.Value) {
					bad = append(bad, fmt.Sprintf("metric name %q", m.Value))
				}
			}
		case *parser.AggregateExpr:
			labels(n.Grouping...)
		case *parser.BinaryExpr:
			if vm := n.VectorMatching; vm != nil {
				labels(vm.MatchingLabels...)
				labels(vm.Include...)
			}
		}
		return nil
	})
	if len(bad) > 0 {
		return fmt.Errorf("Prometheus 2.42 cannot read %s: names are letters, digits and underscores (and colons in metric names)", strings.Join(bad, ", "))
	}
	return nil
}

// LegacyLabelName reports whether Prometheus 2.42 can read a label name.
func LegacyLabelName(name string) bool { return model.LabelName(name).IsValidLegacy() }

// LegacyMetricName reports whether Prometheus 2.42 can read a metric name.
func LegacyMetricName(name string) bool { return model.IsValidLegacyMetricName(name) }
