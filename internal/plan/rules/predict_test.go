package rules

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

func slo(objective *big.Rat, days int) model.SLO {
	return model.SLO{Objective: objective, Period: model.Period{Duration: time.Duration(days) * 24 * time.Hour}}
}

func alerting(minEvents int) model.Alerting {
	return model.Alerting{MinEvents: minEvents, For: map[model.Tier]time.Duration{
		model.PageFast: 2 * time.Minute, model.PageSlow: 2 * time.Minute, model.TicketFast: time.Hour, model.TicketSlow: 3 * time.Hour,
	}}
}

// At 99.5 % a full outage after an hour at 0.05 % errors crosses the 1h
// window's 7.2 % after 60 × (0.072 − 0.0005) / (1 − 0.0005) = 4.29 minutes.
func TestOutagePredictionFollowsTheBurnRateMath(t *testing.T) {
	tr := ChangeAt(1000, 60, 0.0005, 1)
	b := Predict(tr, slo(big.NewRat(199, 200), 30), model.PageFast, alerting(100), 600, 1)
	crossing := 60 * (0.072 - 0.0005) / (1 - 0.0005)
	if b.Never || b.Earliest > crossing+2 || b.Earliest < crossing+2-1.2 {
		t.Errorf("earliest %.2f, want about crossing %.2f + for 2m - 1", b.Earliest, crossing)
	}
	if b.Latest < crossing+2+3 || b.Latest > crossing+2+3+1.2 {
		t.Errorf("latest %.2f, want crossing + for + lag + 1", b.Latest)
	}
}

func TestGuardSilencesLowTraffic(t *testing.T) {
	tr := SteadyTraffic(5.0/60, 0.2)
	for _, tier := range []model.Tier{model.PageFast, model.PageSlow} {
		if b := Predict(tr, slo(big.NewRat(199, 200), 30), tier, alerting(100), 600, 1); !b.Never {
			t.Errorf("%s fires at five requests an hour: %+v", tier, b)
		}
		if b := Predict(tr, slo(big.NewRat(199, 200), 30), tier, alerting(0), 600, 1); b.Never {
			t.Errorf("%s stays quiet without the guard", tier)
		}
	}
}

func TestRatioCountsOnlyExistingData(t *testing.T) {
	tr := ChangeAt(1, 30, 0, 1)
	if r := tr.Ratio(30, 24*60); math.Abs(r-0.5) > 1e-9 {
		t.Errorf("a day window over 30m healthy + 30m failing = %v, want 0.5", r)
	}
}

// The windows read from the period group's samples (a day and more) count
// the time before the data as error-free: 30m failing in a day window over
// an hour of data is 30m of errors in a day, not half the day, on a server
// that samples every PeriodInterval. Under promtool, which samples at every
// evaluation, a minute apart, the samples count four times as much. The
// alerts add the last 5 minutes' errors once more (burnRatio): 5m of them.
func TestLongWindowsCountUncoveredTimeAsErrorFree(t *testing.T) {
	tr := ChangeAt(1, 30, 0, 1)
	server := PeriodInterval.Minutes()
	if r := tr.WindowRatio(30, 24*60, server); math.Abs(r-(30.0+5)/(24*60)) > 1e-9 {
		t.Errorf("a day window over 30m healthy + 30m failing = %v, want (30+5)/1440", r)
	}
	if r := tr.WindowRatio(30, 24*60, 1); math.Abs(r-(4*30.0+5)/(24*60)) > 1e-9 {
		t.Errorf("the same, sampled every minute = %v, want (4×30+5)/1440", r)
	}
	if r := tr.WindowRatio(30, 60, 1); math.Abs(r-0.5) > 1e-9 {
		t.Errorf("an hour window, from raw series, = %v, want 0.5", r)
	}
}

// At a steady error ratio, the day and three-day windows read it 5m/1d
// and 5m/3d high (1.0035 and 1.0012 times: over a ticket's threshold at
// 0.999 of it) and the short windows exactly, so a ticket's condition does
// not hold just under its threshold.
func TestSteadyErrorsJustUnderATicketHoldNoCondition(t *testing.T) {
	s := slo(big.NewRat(999, 1000), 30)
	for _, tier := range []model.Tier{model.TicketFast, model.TicketSlow} {
		threshold, _ := s.ErrorRatioThreshold(tier)
		th, _ := threshold.Float64()
		tr := SteadyTraffic(100, 0.999*th)
		long := model.TierWindows[tier].Long.Minutes()
		want := 0.999 * th * (1 + 5/long)
		if r := tr.WindowRatio(3*24*60, long, PeriodInterval.Minutes()); math.Abs(r-want) > 1e-12 || r <= th {
			t.Errorf("%s: the long window reads %v, want %v, over the threshold %v", tier, r, want, th)
		}
		if b := Predict(tr, s, tier, alerting(100), 5*24*60, 1); !b.Never {
			t.Errorf("%s fires at a steady error ratio 0.1 %% under its threshold: %+v", tier, b)
		}
	}
}

// The page's `for` is the longer of the page tiers'.
func TestPageHoldsForItsLongestFor(t *testing.T) {
	a := alerting(0)
	a.For[model.PageSlow] = 15 * time.Minute
	tr := ChangeAt(1000, 60, 0.0005, 1)
	fast := Predict(tr, slo(big.NewRat(199, 200), 30), model.PageFast, a, 600, 1)
	held := Predict(tr, slo(big.NewRat(199, 200), 30), model.PageFast, alerting(0), 600, 1)
	if d := fast.Earliest - held.Earliest; math.Abs(d-13) > 1e-9 {
		t.Errorf("page_slow's 15m for delays the page by %v minutes over page_fast's 2m, want 13", d)
	}
}

// A window that holds no request has no ratio, and a window over a gap
// counts only the requests around it.
func TestRatioSkipsStretchesWithoutRequests(t *testing.T) {
	tr := Traffic{Start: -60, Stretches: []Stretch{{-30, 10, 0}, {0, 0, 0}, {math.Inf(1), 10, 1}}}
	if r := tr.Ratio(0, 5); !math.IsNaN(r) {
		t.Errorf("5m inside the gap = %v, want NaN", r)
	}
	if r := tr.Ratio(10, 60); math.Abs(r-1.0/3) > 1e-9 {
		t.Errorf("an hour over 20m healthy, the 30m gap and 10m failing = %v, want 1/3", r)
	}
}
