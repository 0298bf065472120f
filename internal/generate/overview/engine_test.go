package overview

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// at is when the tests query: the series below hold their values from
// the start until then.
var at = time.Unix(0, 0).UTC().Add(70 * time.Minute)

// store holds series at constant values, given as PromQL series
// selectors, for the in-process engine (Prometheus's own, as promtest
// replays rules with) to query.
func store(t *testing.T, values map[string]float64) *promtest.Replayed {
	t.Helper()
	var in []promtest.Input
	for s, v := range values {
		ls, err := promcompat.Parser().ParseMetric(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		series := promtest.Input{Labels: ls}
		for ts := int64(0); ts <= at.UnixMilli(); ts += 15_000 {
			series.Samples = append(series.Samples, promql.FPoint{T: ts, F: v})
		}
		in = append(in, series)
	}
	r, err := promtest.Replay{Every: time.Minute}.Run(context.Background(), []byte("groups: []\n"), in, time.Unix(0, 0).UTC(), at)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

// query runs a dashboard query, its variables replaced, at the tests'
// instant.
func query(t *testing.T, r *promtest.Replayed, expr string, vars map[string]string) promql.Vector {
	t.Helper()
	v, err := r.Query(context.Background(), grafanatest.Expand(expr, vars), at)
	if err != nil {
		t.Fatalf("%s: %v", grafanatest.Expand(expr, vars), err)
	}
	return v
}

// near compares two cells: equal but for rounding, or both NaN (no data).
func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// parseLabels reads a series' text back into labels.
func parseLabels(text string) (labels.Labels, error) {
	return promcompat.Parser().ParseMetric(text)
}
