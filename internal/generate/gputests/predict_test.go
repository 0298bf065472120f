package gputests

import (
	"math"
	"testing"
)

func TestRegressionFitsALine(t *testing.T) {
	slope, intercept := regression([]float64{-120, -60, 0}, []float64{100, 160, 220})
	if math.Abs(slope-1) > 1e-12 || math.Abs(intercept-220) > 1e-9 {
		t.Fatalf("slope %v, intercept %v", slope, intercept)
	}
}
