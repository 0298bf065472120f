package gputests

import (
	"math"
	"testing"
)

func TestEncode(t *testing.T) {
	nan := math.NaN()
	tests := map[string]struct {
		in   []float64
		want string
	}{
		"A constant run is one segment.":            {[]float64{5, 5, 5}, "5+0x2"},
		"A counter's phases are segments.":          {[]float64{0, 10, 20, 25, 30}, "0+10x2 25+5x1"},
		"A falling run uses a minus.":               {[]float64{9, 7, 5}, "9-2x2"},
		"Missing samples are blanks, runs counted.": {[]float64{1, nan, nan, 4}, "1 _x2 4"},
		"Trailing missing samples end the series.":  {[]float64{1, 1, nan, nan}, "1+0x1"},
		"Float noise does not split a run.":         {[]float64{0.1, 0.2, 0.30000000000000004}, "0.1+0.1x2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := encode(tc.in); got != tc.want {
				t.Fatalf("encode(%v) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestRegressionFitsALine(t *testing.T) {
	slope, intercept := regression([]float64{-120, -60, 0}, []float64{100, 160, 220})
	if math.Abs(slope-1) > 1e-12 || math.Abs(intercept-220) > 1e-9 {
		t.Fatalf("slope %v, intercept %v", slope, intercept)
	}
}
