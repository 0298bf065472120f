package backtest

import (
	"math"
	"time"
)

// floor is the plot's lowest error ratio: a log scale has no place for a
// ratio of 0 (no failure), so it is drawn there.
const floor = 1e-5

// tick is a labelled mark on an axis, at pos pixels.
type tick struct {
	pos   float64
	label string
}

// ratioScale maps an error ratio to a y on a log scale: the floor at
// bottom, a ratio of 1 at top.
type ratioScale struct{ top, bottom float64 }

func (s ratioScale) y(ratio float64) float64 {
	r := math.Min(math.Max(ratio, floor), 1)
	share := math.Log10(r/floor) / math.Log10(1/floor)
	return s.bottom - share*(s.bottom-s.top)
}

// ratioTicks are the powers of ten from the floor to 1, as percents; the
// floor's label owns that it stands for every smaller ratio too.
var ratioTicks = []struct {
	ratio float64
	label string
}{{1e-5, "≤0.001%"}, {1e-4, "0.01%"}, {1e-3, "0.1%"}, {1e-2, "1%"}, {0.1, "10%"}, {1, "100%"}}

func (s ratioScale) ticks() []tick {
	var ts []tick
	for _, t := range ratioTicks {
		ts = append(ts, tick{s.y(t.ratio), t.label})
	}
	return ts
}

// timeScale maps a time in [from, to] to an x between left and right;
// times outside are drawn at the nearer edge.
type timeScale struct {
	from, to    time.Time
	left, right float64
}

func (s timeScale) x(t time.Time) float64 {
	share := float64(t.Sub(s.from)) / float64(s.to.Sub(s.from))
	return s.left + math.Min(math.Max(share, 0), 1)*(s.right-s.left)
}

// tickSteps are the time axis's candidate steps, shortest first; each
// divides a day or is whole days, so ticks fall on round UTC times.
var tickSteps = []time.Duration{
	5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	24 * time.Hour, 48 * time.Hour, 7 * 24 * time.Hour,
}

// maxTimeSteps keeps the time labels (about 80 pixels wide) apart on a
// plot about 1000 pixels wide.
const maxTimeSteps = 10

// ticks are at every multiple of the shortest step that leaves at most
// maxTimeSteps steps in the window, labelled in UTC. time.Truncate counts
// from year 1, so days start at midnight UTC and weeks on Monday.
func (s timeScale) ticks() []tick {
	window := s.to.Sub(s.from)
	step := tickSteps[len(tickSteps)-1]
	for _, d := range tickSteps {
		if window/d <= maxTimeSteps {
			step = d
			break
		}
	}
	at := s.from.Truncate(step)
	if at.Before(s.from) {
		at = at.Add(step)
	}
	var ts []tick
	for ; !at.After(s.to); at = at.Add(step) {
		ts = append(ts, tick{s.x(at), at.UTC().Format("Jan 02 15:04")})
	}
	return ts
}
