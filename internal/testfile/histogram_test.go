package testfile

import (
	"math"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"
)

// Split puts the fast bucket at or below every threshold and the slow one
// above them all, powers of two included, so histogram_fraction(0, t)
// counts exactly the fast observations.
func TestSplitSurroundsTheThresholds(t *testing.T) {
	for _, ts := range [][]float64{{0.5}, {2}, {0.3}, {0.06, 15}, {0.001, 81.92}, {1, 1.1}} {
		h := Split(ts)
		fastUpper, slowLower := math.Exp2(float64(h.Fast)), math.Exp2(float64(h.Slow-1))
		for _, th := range ts {
			if fastUpper > th || slowLower < th {
				t.Errorf("Split(%v) = %+v: fast bucket up to %g, slow one from %g; threshold %g is not between", ts, h, fastUpper, slowLower, th)
			}
		}
	}
}

// Values writes runs that Prometheus's series notation expands into the
// histograms meant: count observations, fast of them in the fast bucket.
func TestHistogramValuesExpand(t *testing.T) {
	h := Split([]float64{0.25, 2})
	v := h.Values([]Run{{Start: 0, Step: 10, N: 3}, {Start: math.NaN(), N: 1}}, []Run{{Start: 0, Step: 9, N: 3}, {Start: math.NaN(), N: 1}})
	_, vals, err := parser.NewParser(parser.Options{}).ParseSeriesDesc("x " + v)
	if err != nil {
		t.Fatalf("%s: %v", v, err)
	}
	if len(vals) != 6 || !vals[4].Omitted || !vals[5].Omitted {
		t.Fatalf("%s expands to %d samples, want 4 and 2 missing", v, len(vals))
	}
	last := vals[3].Histogram
	if last.Count != 30 || last.PositiveBuckets[0] != 27 || last.PositiveBuckets[len(last.PositiveBuckets)-1] != 3 {
		t.Errorf("%s: the last sample is %s, want 30 observations, 27 fast and 3 slow", v, last)
	}
}
