package testfile

import (
	"fmt"
	"math"
	"strings"
)

// Histogram is a native histogram of exponential schema 0, the schema of
// OTLP's exponential histograms at their coarsest, whose bucket i holds
// the observations in (2^(i-1), 2^i]. Its observations fall in two
// buckets: the fast ones at index Fast, the slow ones at index Slow.
type Histogram struct {
	Fast, Slow int
}

// Split places a histogram's two buckets around the thresholds in seconds:
// the fast bucket's upper bound at or below the lowest, the slow one's
// lower bound at or above the highest, so that histogram_fraction(0, t)
// counts the fast observations exactly and none of the slow ones, for
// every threshold t given.
func Split(thresholds []float64) Histogram {
	lo, hi := thresholds[0], thresholds[0]
	for _, t := range thresholds {
		lo, hi = math.Min(lo, t), math.Max(hi, t)
	}
	return Histogram{Fast: int(math.Floor(math.Log2(lo))), Slow: int(math.Ceil(math.Log2(hi))) + 1}
}

// Values writes the histogram over aligned runs of its observation count
// and its fast observations, as promtool's notation expands
// "{{...}}+{{...}}xn": a run of histograms from a start, growing by a step.
func (h Histogram) Values(count, fast []Run) string {
	segs := make([]string, 0, len(count))
	for i, c := range count {
		f := fast[i]
		switch {
		case math.IsNaN(c.Start):
			segs = append(segs, segment(c))
		case c.N == 0:
			segs = append(segs, h.sample(c.Start, f.Start))
		default:
			segs = append(segs, fmt.Sprintf("%s+%sx%d", h.sample(c.Start, f.Start), h.sample(c.Step, f.Step), c.N))
		}
	}
	return strings.Join(segs, " ")
}

// Samples writes the histogram sample by sample from its count and fast
// observations, finding the runs where both grow steadily.
func (h Histogram) Samples(count, fast []float64) string {
	var cs, fs []Run
	for i := 0; i < len(count); {
		c, f := runAt(count, i), runAt(fast, i)
		n := min(c.N, f.N)
		c.N, f.N = n, n
		cs, fs = append(cs, c), append(fs, f)
		i += n + 1
	}
	return h.Values(cs, fs)
}

// sample is one histogram: count observations, fast of them in the fast
// bucket, the rest in the slow one, summed at their buckets' upper bounds.
func (h Histogram) sample(count, fast float64) string {
	slow := count - fast
	buckets := make([]string, h.Slow-h.Fast+1)
	for i := range buckets {
		buckets[i] = "0"
	}
	buckets[0], buckets[len(buckets)-1] = num(fast), num(slow)
	sum := fast*math.Exp2(float64(h.Fast)) + slow*math.Exp2(float64(h.Slow))
	return fmt.Sprintf("{{schema:0 sum:%s count:%s offset:%d buckets:[%s]}}", num(sum), num(count), h.Fast, strings.Join(buckets, " "))
}
