package testfile

import (
	"math"
	"testing"
)

func TestValues(t *testing.T) {
	nan := math.NaN()
	tests := map[string]struct {
		in   []Run
		want string
	}{
		"A run is a+bxn.":                            {[]Run{{0, 0.5, 60}}, "0+0.5x60"},
		"A run of one sample is its value.":          {[]Run{{3, 1, 0}}, "3"},
		"A falling run uses a minus.":                {[]Run{{9, -2, 2}}, "9-2x2"},
		"A run going on from the last one joins it.": {[]Run{{0, 1000, 60}, {61000, 1000, 10}}, "0+1000x71"},
		"A new step starts a new run.":               {[]Run{{0, 0.1, 60}, {11.25, 5.25, 201}}, "0+0.1x60 11.25+5.25x201"},
		"A run starting elsewhere starts a new one.": {[]Run{{0, 1000, 60}, {61003, 1000, 6}}, "0+1000x60 61003+1000x6"},
		"Float noise does not keep runs apart.":      {[]Run{{0, 0.1, 60}, {6.1, 0.1, 14}}, "0+0.1x75"},
		"Missing samples are blanks, counted.":       {[]Run{{1, 0, 0}, {nan, 0, 1}, {4, 0, 0}}, "1 _x2 4"},
		"A single missing sample is a blank.":        {[]Run{{1, 0, 0}, {nan, 0, 0}, {4, 0, 0}}, "1 _ 4"},
		"Exact values are written with every digit.": {[]Run{{0, 0.016666666666666666, 190}}, "0+0.016666666666666666x190"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Values(tc.in); got != tc.want {
				t.Fatalf("Values(%v) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSamples(t *testing.T) {
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
		"A step has no more decimals than its ends": {[]float64{0.2, 0.3, 0.4}, "0.2+0.1x2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Samples(tc.in); got != tc.want {
				t.Fatalf("Samples(%v) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}
}
