package backtest

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestTimeTicksFallOnRoundTimes(t *testing.T) {
	at := func(s string) time.Time {
		ts, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	cases := map[string]struct {
		from, to string
		want     []string
	}{
		"two hours from a quarter past, every quarter hour": {"2026-11-20T10:07:00Z", "2026-11-20T12:07:00Z",
			[]string{"Nov 20 10:15", "Nov 20 10:30", "Nov 20 10:45", "Nov 20 11:00", "Nov 20 11:15", "Nov 20 11:30", "Nov 20 11:45", "Nov 20 12:00"}},
		"a week from noon, every day at midnight": {"2026-11-20T12:00:00Z", "2026-11-27T12:00:00Z",
			[]string{"Nov 21 00:00", "Nov 22 00:00", "Nov 23 00:00", "Nov 24 00:00", "Nov 25 00:00", "Nov 26 00:00", "Nov 27 00:00"}},
		"31 days, every Monday": {"2026-11-01T00:00:00Z", "2026-12-02T00:00:00Z",
			[]string{"Nov 02 00:00", "Nov 09 00:00", "Nov 16 00:00", "Nov 23 00:00", "Nov 30 00:00"}},
	}
	for name, c := range cases {
		var got []string
		for _, tk := range (timeScale{from: at(c.from), to: at(c.to), left: 0, right: 1000}).ticks() {
			got = append(got, tk.label)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: ticks %q, want %q", name, got, c.want)
		}
	}
}

func TestRatioScaleClampsToTheAxis(t *testing.T) {
	s := ratioScale{top: 0, bottom: 500}
	for ratio, want := range map[float64]float64{0: 500, floor / 10: 500, floor: 500, 0.001: 300, 1: 0, 1.2: 0} {
		if got := s.y(ratio); math.Abs(got-want) > 1e-9 {
			t.Errorf("ratio %g at y %g, want %g", ratio, got, want)
		}
	}
}
