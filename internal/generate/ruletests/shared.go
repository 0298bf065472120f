package ruletests

import (
	"math"
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// SLOs share series: a ttft SLO and a goodput SLO with the same ttft
// bound read the same bucket, two latency SLOs the same count. A test
// writes each series once, so an SLO that shares one with an SLO under
// test sees that SLO's traffic, not its own. world says who writes what,
// and what each SLO then sees, so a test can expect its alerts too.

// world is a test's input series: each written by the phases of one SLO
// that reads it.
type world struct {
	svc     model.Service
	phases  map[string][]phase // by SLO
	changed map[string]bool    // the SLOs the test moves off their healthy ratio
	writer  map[string]reading // by series
}

// reading is an SLO's view of one series: how its events count there.
type reading struct {
	slo model.SLO
	in  model.Input
}

func newWorld(svc model.Service, phasesOf func(model.SLO) []phase) world {
	w := world{svc: svc, phases: map[string][]phase{}, changed: map[string]bool{}, writer: map[string]reading{}}
	for _, slo := range testable(svc) {
		w.phases[slo.Name] = phasesOf(slo)
		w.changed[slo.Name] = slices.ContainsFunc(w.phases[slo.Name], func(p phase) bool { return p.ratio != rules.HealthyRatio(slo) })
	}
	for _, slo := range testable(svc) {
		for _, in := range slo.SLI.Inputs {
			k := written(in)
			if cur, ok := w.writer[k]; !ok || w.writes(reading{slo, in}, cur) {
				w.writer[k] = reading{slo, in}
			}
		}
	}
	return w
}

// writes reports whether a rather than b writes their series: an SLO the
// test changes before one it leaves healthy, so the SLOs under test see
// what the test means them to; one that tells good from bad by the
// series before one that counts both alike; then the one with fewer
// errors, so that the other sees no more than its own healthy share.
func (w world) writes(a, b reading) bool {
	if ca, cb := w.changed[a.slo.Name], w.changed[b.slo.Name]; ca != cb {
		return ca
	}
	if ta, tb := a.in.Good != a.in.Bad, b.in.Good != b.in.Bad; ta != tb {
		return ta
	}
	return rules.HealthyRatio(a.slo) < rules.HealthyRatio(b.slo)
}

// series writes every input series once, in the order of the SLOs that
// write them, and the service's request counters no testable SLO reads,
// at the last SLO's request rates with no failure.
func (w world) series() []testfile.Series {
	var out []testfile.Series
	read := map[string]bool{}
	var ps []phase
	for _, slo := range testable(w.svc) {
		ps = w.phases[slo.Name]
		var native []model.Input // the parts of the histograms it writes
		for _, in := range slo.SLI.Inputs {
			k := written(in)
			read[k] = true
			switch r := w.writer[k]; {
			case r.slo.Name != slo.Name:
			case in.Native:
				native = append(native, in)
			case r.in == in:
				out = append(out, inputSeries(w.svc, []model.Input{in}, ps)...)
			}
		}
		out = append(out, inputSeries(w.svc, native, ps)...)
	}
	for _, in := range untestedTraffic(w.svc, read) {
		out = append(out, inputSeries(w.svc, []model.Input{in}, withRatio(ps, 0))...)
	}
	return out
}

// seen is the SLO's phases with the error ratio its SLI reads from the
// series as written: each part's bad share, added up as a goodput SLI
// bounds its bad requests. The sum passes one where several bounds
// stall. The SLI holds each raw window (up to 6h) to one, which moves no
// crossing of a threshold of at most one; the windows of a day and more
// average the held 5m recordings, where the sum reads high. Only a stall
// of several bounds has such a sum, and its checks end within the hour.
func (w world) seen(slo model.SLO) []phase {
	out := slices.Clone(w.phases[slo.Name])
	for i, shares := range w.shares(slo) {
		out[i].ratio = 0
		for _, sh := range shares {
			out[i].ratio += sh
		}
	}
	return out
}

// shares are, phase by phase, the bad share of each of the SLO's parts:
// a goodput SLI's bounds, or the one SLI of any other.
func (w world) shares(slo model.SLO) [][]float64 {
	parts := slo.SLI.Measured()
	out := make([][]float64, len(w.phases[slo.Name]))
	for i := range out {
		for _, p := range parts {
			out[i] = append(out[i], w.badShare(p, i))
		}
	}
	return out
}

// badShare is the share of a part's requests that are bad in phase i: read
// from its first series that tells good from bad, as its writer wrote
// it. Every phases function of a test gives each SLO the same stretches.
func (w world) badShare(part model.SLI, i int) float64 {
	for _, in := range part.Inputs {
		if in.Good == in.Bad {
			continue
		}
		wr, ok := w.writer[written(in)]
		if !ok { // a failure counter left out, as when nothing fails
			continue
		}
		if in.Native {
			// The histogram's writer files every observation as fast
			// when it has no bucket of its own: none is bad.
			if wr.in, ok = partLike(wr.slo, in); !ok {
				return 0
			}
		}
		r := w.phases[wr.slo.Name][i].ratio
		perRequest := wr.in.Good*(1-r) + wr.in.Bad*r
		return (in.Good - perRequest) / (in.Good - in.Bad)
	}
	return 0
}

// coupled adds to s, the tiers a test predicts for its SLOs, those of the
// other SLOs whose shared series make them see other traffic than their
// own, predicted from what they see.
func (w world) coupled(s schedule, change, limit, step float64) {
	addCoupled(s, w.svc, func(slo model.SLO) (seen, own []phase) { return w.seen(slo), w.phases[slo.Name] }, change, limit, step)
}

// coupledGroups is coupled for a test of two values of the split SLOs'
// labels, burning and healthy, written as two worlds of the same
// stretches: a split SLO's alerts are the burning value's, and an SLO not
// split adds both values' requests.
func coupledGroups(s schedule, burning, healthy world, change, limit, step float64) {
	addCoupled(s, burning.svc, func(slo model.SLO) (seen, own []phase) {
		seen, own = burning.seen(slo), burning.phases[slo.Name]
		if len(slo.GroupBy) == 0 {
			seen, own = together(seen, healthy.seen(slo)), together(own, healthy.phases[slo.Name])
		}
		return seen, own
	}, change, limit, step)
}

// addCoupled adds the tiers of each SLO outside s whose view of the
// series, what it sees against its own phases, differs.
func addCoupled(s schedule, svc model.Service, view func(model.SLO) (seen, own []phase), change, limit, step float64) {
	for _, slo := range testable(svc) {
		if _, ok := s[slo.Name]; ok {
			continue
		}
		if seen, own := view(slo); !sameRatios(seen, own) {
			s[slo.Name] = rules.PredictTiers(svc, slo, trafficOf(seen, change), limit, step)
		}
	}
}

// together is the traffic of two sets of series an SLO adds up, stretch
// by stretch.
func together(a, b []phase) []phase {
	out := slices.Clone(a)
	for i := range out {
		out[i].perMinute += b[i].perMinute
		if out[i].perMinute > 0 {
			out[i].ratio = (a[i].perMinute*a[i].ratio + b[i].perMinute*b[i].ratio) / out[i].perMinute
		}
	}
	return out
}

// mayPage lists the SLOs whose page tiers the schedule lets fire.
func (s schedule) mayPage() []string {
	var out []string
	for name, ts := range s {
		for t, b := range ts {
			if t.IsPage() && !b.Never {
				out = append(out, name)
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// trafficOf is phases as the predictor reads them, minutes from the
// change; the last phase lasts for ever.
func trafficOf(ps []phase, change float64) rules.Traffic {
	tr := rules.Traffic{Start: -change}
	until := -change
	for i, p := range ps {
		until += float64(p.minutes)
		if i == len(ps)-1 {
			until = math.Inf(1)
		}
		tr.Stretches = append(tr.Stretches, rules.Stretch{Until: until, PerMinute: p.perMinute, Ratio: p.ratio})
	}
	return tr
}

// sameRatios reports whether two runs of phases differ at most by the
// float noise of working a ratio out from a counter's increments.
func sameRatios(a, b []phase) bool {
	return slices.EqualFunc(a, b, func(x, y phase) bool {
		return x.minutes == y.minutes && x.perMinute == y.perMinute && near(x.ratio, y.ratio, 1e-9)
	})
}
