package openslo

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// quantileEvents reads a thresholdMetric that caps a classic histogram's
// quantile, histogram_quantile(φ, sum by (le) (rate(h_bucket[$window])))
// lte v, as events. histogram_quantile finds the first bucket holding φ
// of the count and interpolates inside it (bucketQuantile in
// prometheus/prometheus promql/quantile.go), so when v is a bucket bound
// the quantile is at most v exactly when at least φ of the requests took
// at most v (but for v the highest finite bound, where it stops): a slice
// meets the threshold when at least φ of its requests are good, and good
// requests are those in h_bucket{le="v"}. bad is then the count minus that bucket and total
// the count, which slogen can stage in generated tests. It applies only
// where the target is φ, so that the objective means what both say; ok is
// false for any other query, and q is left to thresholdMetric's reading
// as time.
func quantileEvents(q string, o objective) (bad, total, note string, ok bool) {
	phi, sel, ok := quantileOf(q)
	if !ok || (o.Op != "lte" && o.Op != "lt") {
		return "", "", "", false
	}
	if strconv.FormatFloat(phi*100, 'g', 12, 64) != importer.Percent(o.Percent) {
		return "", "", "", false
	}
	base := strings.TrimSuffix(sel.Name, "_bucket")
	count := counter(base+"_count", sel.LabelMatchers)
	bucket := counter(sel.Name, append(sel.LabelMatchers, labels.MustNewMatcher(labels.MatchEqual, "le", o.Value)))
	total = fmt.Sprintf("sum(rate(%s[%s]))", count, importer.WindowVar)
	// A bucket that matches nothing reads as no good requests, so that a
	// wrong le counts every request as slow instead of none.
	bad = fmt.Sprintf("%s - (sum(rate(%s[%s])) or vector(0))", total, bucket, importer.WindowVar)
	note = fmt.Sprintf("thresholdMetric %s's quantile %v %s %s: a 5m slice meets it exactly when at least %s %% of its requests took at most %s, so slogen counts those as good events: bad is %s minus its bucket le=%q, total the count, and the objective (the target, equal to the quantile) applies to requests", base, phi, o.Op, o.Value, importer.Percent(o.Percent), o.Value, count.Name, o.Value)
	if o.Op == "lt" {
		note += "; lt reads as lte, since a bucket counts the requests at its bound"
	}
	note += fmt.Sprintf(". le=%q must be one of the histogram's buckets, as its exporter writes it (Go clients write 1, Python 1.0), or every request counts as slow: check count by (le) (%s)", o.Value, sel)
	return bad, total, note, true
}

// quantileOf reads histogram_quantile(φ, sum by (le) (rate(h_bucket[…])))
// over a classic histogram: φ and the bucket selector, which has no le.
func quantileOf(q string) (float64, *parser.VectorSelector, bool) {
	e, err := importer.Parse(q)
	if err != nil {
		return 0, nil, false
	}
	call, ok := e.(*parser.Call)
	if !ok || call.Func.Name != "histogram_quantile" {
		return 0, nil, false
	}
	phi, ok := call.Args[0].(*parser.NumberLiteral)
	if !ok || phi.Val <= 0 || phi.Val >= 1 {
		return 0, nil, false
	}
	agg, ok := pql.Unparen(call.Args[1]).(*parser.AggregateExpr)
	if !ok || agg.Op != parser.SUM || agg.Without || len(agg.Grouping) != 1 || agg.Grouping[0] != "le" {
		return 0, nil, false
	}
	rate, ok := pql.Unparen(agg.Expr).(*parser.Call)
	if !ok || rate.Func.Name != "rate" {
		return 0, nil, false
	}
	ms, ok := rate.Args[0].(*parser.MatrixSelector)
	if !ok || ms.Range != model.BaseWindow {
		return 0, nil, false
	}
	vs, ok := ms.VectorSelector.(*parser.VectorSelector)
	if !ok || !strings.HasSuffix(vs.Name, "_bucket") || vs.OriginalOffset != 0 || vs.Timestamp != nil || vs.StartOrEnd != 0 {
		return 0, nil, false
	}
	for _, m := range vs.LabelMatchers {
		if m.Name == "le" {
			return 0, nil, false
		}
	}
	return phi.Val, vs, true
}

// counter is a selector of metric with the matchers given but the name.
func counter(metric string, ms []*labels.Matcher) *parser.VectorSelector {
	out := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, labels.MetricName, metric)}
	for _, m := range ms {
		if m.Name != labels.MetricName {
			out = append(out, m)
		}
	}
	return &parser.VectorSelector{Name: metric, LabelMatchers: out}
}
