package initspec

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/slogen-dev/slogen/internal/profile"
)

// ladder are the objectives init proposes, in percent, highest first: a
// service's history is rounded down to the next of them. Below 95 % a
// burn-rate page would need more than 100 % errors over some tiers'
// windows, and an SLO that low says more about the service than any
// objective would.
var ladder = []float64{99.99, 99.95, 99.9, 99.5, 99, 98, 97, 96, 95}

// latencyCeiling: a latency objective above 99.9 % leaves a budget that
// a handful of slow requests spend.
const latencyCeiling = 99.9

// latencyTarget is the share of requests the proposed threshold must
// hold: the smallest boundary within which 99 % of requests finished.
const latencyTarget = 0.99

// objectiveMet is the highest objective of the ladder, at most ceiling,
// that a share met; zero when it met none.
func objectiveMet(met, ceiling float64) float64 {
	for _, o := range ladder {
		if o <= ceiling && met*100 >= o {
			return o
		}
	}
	return 0
}

// pickThreshold proposes the smallest boundary, of those the server
// counted requests in, that held latencyTarget of the requests (or, when none did, the one that held the most), and
// the objective its share met.
func pickThreshold(p Proposal, h *profile.Histogram, within map[float64]float64) Proposal {
	var bounds []float64
	for b := range within {
		if _, ok := threshold(b, h.Unit); ok && b > 0 && !math.IsInf(b, 1) {
			bounds = append(bounds, b)
		}
	}
	slices.Sort(bounds)
	if len(bounds) == 0 {
		p.Skipped = "its histogram has no boundary a threshold can be written as"
		return p
	}
	share := func(b float64) float64 { return within[b] / p.Requests }
	pick := slices.IndexFunc(bounds, func(b float64) bool { return share(b) >= latencyTarget })
	if pick < 0 {
		pick = len(bounds) - 1
	}
	p.Met = share(bounds[pick])
	p.Threshold, _ = threshold(bounds[pick], h.Unit)
	p.Objective = objectiveMet(p.Met, latencyCeiling)
	for i := max(0, pick-2); i < min(len(bounds), pick+2); i++ {
		t, _ := threshold(bounds[i], h.Unit)
		p.Within = append(p.Within, Share{Bound: t, Share: share(bounds[i])})
	}
	if p.Objective == 0 {
		p.Skipped = fmt.Sprintf("only %s of requests were within its largest boundary, %s, under the lowest objective init proposes (%g %%)",
			percent(p.Met), p.Threshold, ladder[len(ladder)-1])
		p.Threshold = ""
	}
	return p
}

// threshold writes a bound of a histogram whose unit is unit seconds as a
// spec's threshold: seconds from 1s up, milliseconds below. ok is false
// where that would take more than six decimals.
func threshold(bound, unit float64) (string, bool) {
	secs := bound * unit
	value, suffix := secs, "s"
	if secs < 1 {
		value, suffix = secs*1000, "ms"
	}
	rounded := math.Round(value*1e6) / 1e6
	if rounded <= 0 || math.Abs(rounded-value) > 1e-9*math.Max(1, value) {
		return "", false
	}
	return strconv.FormatFloat(rounded, 'f', -1, 64) + suffix, true
}
