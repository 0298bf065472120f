package ruletests

import (
	"math"
	"strconv"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// phase is a stretch of minutes with a steady request rate and error ratio.
type phase struct {
	minutes   int
	perMinute float64
	ratio     float64
}

// inputSeries writes counters, and native histograms from their parts,
// for a run of phases. After the last phase the series stop, as when a
// target disappears.
func inputSeries(svc model.Service, ins []model.Input, phases []phase) []testfile.Series {
	runs := func(in model.Input) []testfile.Run { return counter(in, phases) }
	out, classic := nativeSeries(svc, ins, runs)
	for _, in := range classic {
		out = append(out, testfile.Series{Series: in.Series.String(), Values: testfile.Values(runs(in))})
	}
	return out
}

// counter is an input's counter over the phases, one run each. The first
// sample is at time zero.
func counter(in model.Input, phases []phase) []testfile.Run {
	var runs []testfile.Run
	v := 0.0
	for i, p := range phases {
		inc := p.perMinute * (in.Good*(1-p.ratio) + in.Bad*p.ratio)
		n := p.minutes
		start := v
		if i > 0 {
			start += inc // the previous phase wrote the sample at its last minute
			n--
		}
		runs = append(runs, testfile.Run{Start: start, Step: inc, N: n})
		v = runEnd(start, inc, n)
	}
	return runs
}

// runEnd is a run's last sample as promtool expands it, by adding the
// step again and again: the next run must start from exactly there, or a
// counter meant to stand still would move by float noise.
func runEnd(start, step float64, n int) float64 {
	v := start
	for range n {
		v += step
	}
	return v
}

// near reports whether got is want but for a relative error of tolerance.
func near(got, want, tolerance float64) bool {
	return math.Abs(got-want) <= tolerance*math.Max(1, math.Abs(want))
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
