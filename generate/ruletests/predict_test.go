package ruletests

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
		model.PageFast: 2 * time.Minute, model.PageSlow: 15 * time.Minute, model.TicketFast: time.Hour, model.TicketSlow: 3 * time.Hour,
	}}
}

// At 99.5 % a full outage after an hour at 0.05 % errors crosses the 1h
// window's 7.2 % after 60 × (0.072 − 0.0005) / (1 − 0.0005) = 4.29 minutes.
func TestOutagePredictionFollowsTheBurnRateMath(t *testing.T) {
	tr := traffic{perMinute: 1000, history: 60, before: 0.0005, after: 1}
	b := predict(tr, slo(big.NewRat(199, 200), 30), model.PageFast, alerting(100), 600)
	crossing := 60 * (0.072 - 0.0005) / (1 - 0.0005)
	if b.never || b.earliest > crossing+2 || b.earliest < crossing+2-1.2 {
		t.Errorf("earliest %.2f, want about crossing %.2f + for 2m - 1", b.earliest, crossing)
	}
	if b.latest < crossing+2+rawLag || b.latest > crossing+2+rawLag+1.2 {
		t.Errorf("latest %.2f, want crossing + for + lag + 1", b.latest)
	}
}

func TestSlowBurnNeverPages(t *testing.T) {
	s := slo(big.NewRat(999, 1000), 30)
	tr := traffic{perMinute: 1000, history: 60, before: 0.0001, after: slowRatio(s)}
	for _, tier := range model.Tiers {
		b := predict(tr, s, tier, alerting(100), 3*24*60)
		if tier.IsPage() != b.never {
			t.Errorf("%s: never=%v at %.4f errors", tier, b.never, tr.after)
		}
	}
}

func TestGuardSilencesLowTraffic(t *testing.T) {
	tr := traffic{perMinute: 5.0 / 60, before: 0.2, after: 0.2}
	for _, tier := range []model.Tier{model.PageFast, model.PageSlow} {
		if b := predict(tr, slo(big.NewRat(199, 200), 30), tier, alerting(100), 600); !b.never {
			t.Errorf("%s fires at five requests an hour: %+v", tier, b)
		}
		if b := predict(tr, slo(big.NewRat(199, 200), 30), tier, alerting(0), 600); b.never {
			t.Errorf("%s stays quiet without the guard", tier)
		}
	}
}

func TestRatioCountsOnlyExistingData(t *testing.T) {
	tr := traffic{history: 30, before: 0, after: 1}
	if r := tr.ratio(30, 24*60); math.Abs(r-0.5) > 1e-9 {
		t.Errorf("a day window over 30m healthy + 30m failing = %v, want 0.5", r)
	}
}
