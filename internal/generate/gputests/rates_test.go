package gputests

import (
	"testing"
	"time"
)

// The two versions' readings of a range, as the generated tests meet
// them: alike on a steady counter and on one that starts within the
// range, apart after a restart early in it that counted faster than the rest
// (InferenceInputErrors' failed requests), where the prediction stops.
func TestEnginesReadRangesAsPrometheusDoes(t *testing.T) {
	steady := []float64{0, 10, 20, 30, 40, 50, 60, 70}
	fromZero := []float64{0, 0, 0, 0, 0, 4, 8, 12}
	restarted := []float64{600, 690, 50, 80, 110, 140, 170}
	for name, c := range map[string]struct {
		vs      []float64
		i, n    int
		closed  float64 // Prometheus 2.42's increase
		open    float64 // Prometheus 3's
		agreeOK bool
	}{
		"a steady counter grows by its slope over the range":                       {steady, 7, 5, 50, 50, true},
		"a counter still at zero at the range's start is not stretched before it":  {fromZero, 7, 5, 12, 12, true},
		"a counter restarted in the range's first spacing, faster then than since": {restarted, 6, 5, 170, 150, false},
	} {
		for _, e := range engines {
			want := c.open
			if e.closed {
				want = c.closed
			}
			got, ok := e.increase(c.vs, c.i, c.n, time.Minute)
			if !ok || got != want {
				t.Errorf("%s: closed %v: increase %v (%v), want %v", name, e.closed, got, ok, want)
			}
			if r, _ := e.rate(c.vs, c.i, c.n, time.Minute); r != want/300 {
				t.Errorf("%s: closed %v: rate %v, want %v", name, e.closed, r, want/300)
			}
		}
		_, ok := agreed(func(e engine) (float64, bool) { return e.increase(c.vs, c.i, c.n, time.Minute) })
		if ok != c.agreeOK {
			t.Errorf("%s: the engines agree: %v, want %v", name, ok, c.agreeOK)
		}
	}
}

func TestEnginesAverageOverTheirRanges(t *testing.T) {
	vs := []float64{1, 3, 3, 3}
	closed, _ := engines[0].avgOverTime(vs, 3, 3)
	open, _ := engines[1].avgOverTime(vs, 3, 3)
	if closed != 2.5 || open != 3 {
		t.Errorf("avg_over_time: closed %v, open %v; want 2.5 and 3", closed, open)
	}
}
