package promtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
)

// sampleResult is an expected or returned sample of a promql_expr_test.
type sampleResult struct {
	labels labels.Labels
	value  float64
}

func (s sampleResult) String() string {
	return s.labels.String() + " " + strconv.FormatFloat(s.value, 'E', -1, 64)
}

// checkExpr runs one promql_expr_test at mint+eval_time and words a
// failure as promtool does.
func checkExpr(ctx context.Context, tc exprTestCase, mint time.Time, query queryFunc, fuzzy bool) error {
	fail := func(err error) error {
		return fmt.Errorf("    expr: %q, time: %s, err: %w", tc.Expr, tc.EvalTime, err)
	}
	vec, err := query(ctx, tc.Expr, mint.Add(time.Duration(tc.EvalTime)))
	if err != nil {
		return fail(err)
	}
	var got []sampleResult
	for _, s := range vec {
		if s.H != nil {
			return fail(errors.New("native histogram results are not supported"))
		}
		got = append(got, sampleResult{labels: s.Metric, value: s.F})
	}
	exp, err := expectedSamples(tc.ExpSamples)
	if err != nil {
		return fail(err)
	}
	sortSamples(exp)
	sortSamples(got)
	if slices.EqualFunc(exp, got, func(a, b sampleResult) bool {
		return labels.Equal(a.labels, b.labels) && floatsEqual(a.value, b.value, fuzzy)
	}) {
		return nil
	}
	return fmt.Errorf("    expr: %q, time: %s,\n        exp: %v\n        got: %v",
		tc.Expr, tc.EvalTime, samplesString(exp), samplesString(got))
}

func expectedSamples(in []expSample) ([]sampleResult, error) {
	var out []sampleResult
	for _, s := range in {
		if s.Histogram != "" {
			return nil, fmt.Errorf("labels %q: native histogram samples are not supported", s.Labels)
		}
		lset, err := ruleParser.ParseMetric(s.Labels)
		if err != nil {
			return nil, fmt.Errorf("labels %q: %w", s.Labels, err)
		}
		out = append(out, sampleResult{labels: lset, value: s.Value})
	}
	return out, nil
}

// floatsEqual compares like promtool: exactly (so NaN never equals NaN,
// as with go-cmp), or within one ULP when fuzzy_compare is set.
func floatsEqual(x, y float64, fuzzy bool) bool {
	if x == y {
		return true
	}
	return fuzzy && (math.Nextafter(x, math.Inf(-1)) == y || math.Nextafter(x, math.Inf(1)) == y)
}

func sortSamples(s []sampleResult) {
	slices.SortFunc(s, func(a, b sampleResult) int { return labels.Compare(a.labels, b.labels) })
}

func samplesString(s []sampleResult) string {
	if len(s) == 0 {
		return "nil"
	}
	parts := make([]string, len(s))
	for i, x := range s {
		parts[i] = x.String()
	}
	return strings.Join(parts, ", ")
}
