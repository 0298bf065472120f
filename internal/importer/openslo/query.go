package openslo

import (
	"fmt"
	"regexp"
	"strings"

	prommodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/model"
)

// windowTemplate is Sloth's range template, {{.window}}, which OpenSLO
// files written for Sloth carry.
var windowTemplate = regexp.MustCompile(`\{\{\s*\.window\s*\}\}`)

// negated is the comparison that makes a threshold metric's value bad.
var negated = map[string]string{"lt": ">=", "lte": ">", "gt": "<=", "gte": "<"}

// indicatorQueries fills the SLO's bad and total from the objective's
// SLI, noting what changed; it returns why the SLO cannot be carried, or
// "".
func indicatorQueries(c *importer.SLO, o objective) string {
	s, n := o.SLI, &c.Notes
	type query struct {
		src  *source
		into *string
	}
	var good, raw string
	var qs []query
	switch {
	case s.Threshold != nil:
		qs = []query{{s.Threshold, &c.Bad}}
	case s.Raw != nil:
		qs = []query{{s.Raw, &raw}}
	case s.Good != nil:
		qs = []query{{s.Good, &good}, {s.Total, &c.Total}}
	default:
		qs = []query{{s.Bad, &c.Bad}, {s.Total, &c.Total}}
	}
	for _, q := range qs {
		out, note, why := promQL(q.src.Query, s.Counter || s.Threshold != nil)
		if why != "" {
			return fmt.Sprintf("%s (%s): %s", q.src.Field, q.src.At, why)
		}
		*q.into = out
		if note != "" {
			n.Changed = append(n.Changed, fmt.Sprintf("%s (%s): %s", q.src.Field, q.src.At, note))
		}
	}
	switch {
	case s.Threshold != nil:
		if bad, total, note, ok := quantileEvents(c.Bad, o); ok {
			c.Bad, c.Total = bad, total
			n.Changed = append(n.Changed, note)
			break
		}
		c.Bad, c.Total = fmt.Sprintf("max((%s) %s bool %s)", c.Bad, negated[o.Op], o.Value), "vector(1)"
		n.Changed = append(n.Changed, fmt.Sprintf("thresholdMetric with op %s value %s: bad is 1 while the query is not %s %s and total is vector(1), so the SLI is the share of slogen's 5m evaluations that meet it (time, as Timeslices with 5m slices); slogen's low-traffic guard then counts one event a second, and its traffic-drop alert and generated tests do not apply", o.Op, o.Value, o.Op, o.Value))
	case s.Raw != nil && s.RawFailure:
		c.Bad, c.Total = "("+raw+")", "vector(1)"
		n.Changed = append(n.Changed, "ratioMetric.raw (rawType failure): bad is the ratio and total vector(1), so the SLI is the ratio averaged over time; slogen's low-traffic guard then counts one event a second, and its traffic-drop alert and generated tests do not apply")
	case s.Raw != nil:
		c.Bad, c.Total = "(1 - ("+raw+"))", "vector(1)"
		n.Changed = append(n.Changed, "ratioMetric.raw (rawType success): bad is 1 minus the ratio and total vector(1), so the SLI is the ratio averaged over time; slogen's low-traffic guard then counts one event a second, and its traffic-drop alert and generated tests do not apply")
	case s.Good != nil:
		if bad, neg, ok := importer.Complement(good, c.Total); ok {
			c.Bad = bad
			n.Changed = append(n.Changed, fmt.Sprintf("ratioMetric good over total: bad is the total's counter where %s, the good query's matcher negated, as slogen's ratio SLO counts bad events", neg))
			break
		}
		c.Bad = fmt.Sprintf("(%s) - (%s)", c.Total, good)
		n.Changed = append(n.Changed, "ratioMetric good over total: bad is total minus good, as slogen's ratio SLO counts bad events")
	default:
		n.Exact = append(n.Exact, "ratioMetric bad over total as bad and total")
	}
	return ""
}

// promQL turns an OpenSLO Prometheus query into one of slogen's: every
// range reads [$window], and a counter query without a range reads its
// rate. It returns a note on what changed, or why the query cannot be
// carried.
func promQL(q string, counter bool) (out, note, why string) {
	q = windowTemplate.ReplaceAllLiteralString(strings.TrimSpace(q), importer.WindowVar)
	if strings.Contains(q, "{{") {
		return "", "", "a template other than {{.window}} in a query: slogen fills in only the range"
	}
	e, err := importer.Parse(q)
	if err != nil {
		return "", "", fmt.Sprintf("not Prometheus 2.42's PromQL (%v)", err)
	}
	ranges := 0
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if m, ok := n.(*parser.MatrixSelector); ok {
			m.Range = model.BaseWindow
			ranges++
		}
		return nil
	})
	switch {
	case ranges == 0 && counter:
		return rateOf(e)
	case ranges == 0:
		return q, "counter is false and the query has no range: slogen reads its value as events per second", ""
	case strings.Count(q, "["+importer.WindowVar+"]") != ranges:
		return windowed(e), fmt.Sprintf("its ranges become [%s]: slogen reads raw series over %s and builds its longer windows from recordings", importer.WindowVar, base()), ""
	}
	return q, "", ""
}

// rateOf reads a counter selector, or a sum of one, as a rate.
func rateOf(e parser.Expr) (string, string, string) {
	inner := e
	agg, isAgg := e.(*parser.AggregateExpr)
	if isAgg && agg.Op == parser.SUM {
		inner = agg.Expr
	}
	vs, ok := inner.(*parser.VectorSelector)
	if !ok {
		return "", "", "counter: true, and the query has no range and is not a counter selector or a sum of one: write it with rate(...[{{.window}}])"
	}
	rate := &parser.Call{Func: parser.Functions["rate"], Args: parser.Expressions{&parser.MatrixSelector{VectorSelector: vs, Range: model.BaseWindow}}}
	out := parser.Expr(&parser.AggregateExpr{Op: parser.SUM, Expr: rate})
	if isAgg {
		agg.Expr = rate
		out = agg
	}
	return windowed(out), fmt.Sprintf("counter: true: the counter is read as sum(rate(...[%s]))", importer.WindowVar), ""
}

// windowed prints an expression whose ranges are all the base window with
// $window for them.
func windowed(e parser.Expr) string { return importer.Print(e) }

// base is the base window as PromQL writes it, 5m.
func base() string { return prommodel.Duration(model.BaseWindow).String() }
