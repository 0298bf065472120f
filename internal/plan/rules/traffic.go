package rules

import (
	"math"
	"math/big"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// Traffic is what one SLO's series see: stretches of steady request rate
// and error ratio, one after another from minute Start (zero or less).
// Times are minutes from the change a prediction is about.
type Traffic struct {
	Start     float64
	Stretches []Stretch
}

// Stretch is steady traffic until a minute; the last one lasts for ever.
type Stretch struct {
	Until     float64
	PerMinute float64 // requests per minute
	Ratio     float64 // error ratio
}

// ChangeAt is history minutes at one error ratio, then another from the
// change on, at a steady request rate.
func ChangeAt(perMinute, history, before, after float64) Traffic {
	return Traffic{Start: -history, Stretches: []Stretch{{0, perMinute, before}, {math.Inf(1), perMinute, after}}}
}

// SteadyTraffic is one rate and ratio from minute zero on.
func SteadyTraffic(perMinute, ratio float64) Traffic {
	return Traffic{Stretches: []Stretch{{math.Inf(1), perMinute, ratio}}}
}

// HealthyPerMinute is a request rate that gives every long window far
// more requests than the low-traffic guard asks for.
func HealthyPerMinute(svc model.Service) float64 {
	return math.Max(1000, math.Ceil(float64(svc.Alerting.MinEvents)/10))
}

// HealthyRatio is a tenth of the SLO's error budget: an error ratio no
// tier fires on.
func HealthyRatio(slo model.SLO) float64 {
	r, _ := new(big.Rat).Mul(slo.ErrorBudget(), big.NewRat(1, 10)).Float64()
	return r
}

// Counted is the requests and the failed ones from minute a to b.
func (tr Traffic) Counted(a, b float64) (requests, failed float64) {
	from := tr.Start
	for _, s := range tr.Stretches {
		lo, hi := math.Max(a, from), math.Min(b, s.Until)
		if hi > lo {
			requests += (hi - lo) * s.PerMinute
			failed += (hi - lo) * s.PerMinute * s.Ratio
		}
		from = s.Until
	}
	return requests, failed
}

// Ratio is the exact error ratio over the w minutes ending x minutes after
// the change, counting only data that exists; NaN when it holds no request.
func (tr Traffic) Ratio(x, w float64) float64 {
	requests, failed := tr.Counted(math.Max(x-w, tr.Start), x)
	if requests == 0 {
		return math.NaN()
	}
	return failed / requests
}

// coveredRatio is the error ratio as the windows read from the period
// group's samples see it: the part of the window before the samples start
// counts as error-free at the traffic seen, so the ratio seen shrinks by
// the share of the window's PeriodInterval samples taken, one every
// sampling minutes. A server samples every PeriodInterval, the share of
// the window the data covers; promtool, which evaluates every group at
// every evaluation, samples every evaluation.
func (tr Traffic) coveredRatio(x, w, sampling float64) float64 {
	from := math.Max(x-w, tr.Start)
	return tr.Ratio(x, w) * math.Min((x-from)/sampling*PeriodInterval.Minutes()/w, 1)
}

// WindowRatio is the error ratio the burn alerts compare over a window of
// w minutes, with the period group sampling every sampling minutes: Ratio
// over the windows read from raw series, else coveredRatio plus the base
// window's errors as a share of w (freshRatio; see burnRatio).
func (tr Traffic) WindowRatio(x, w, sampling float64) float64 {
	if FromRawSeries(time.Duration(w * float64(time.Minute))) {
		return tr.Ratio(x, w)
	}
	return tr.coveredRatio(x, w, sampling) + tr.freshRatio(x, w)
}

// freshRatio is what the base window's errors add to the error ratio over
// a window of w minutes read from the period group's samples: their rate
// divided by w's base windows, that is their count over w, against the
// request rate the samples average, that of the part of the window that
// holds data.
func (tr Traffic) freshRatio(x, w float64) float64 {
	_, failed := tr.Counted(x-model.BaseWindow.Minutes(), x)
	from := math.Max(x-w, tr.Start)
	requests, _ := tr.Counted(from, x)
	if requests == 0 {
		return math.NaN()
	}
	return failed / w / (requests / (x - from))
}

// Events is what the low-traffic guard sees: the average request rate over
// the part of the window that holds data, times the window's length.
// Before a window is full of data, that is more than the requests it holds.
func (tr Traffic) Events(x, w float64) float64 {
	from := math.Max(x-w, tr.Start)
	if x <= from {
		return 0
	}
	requests, _ := tr.Counted(from, x)
	return requests / (x - from) * w
}
