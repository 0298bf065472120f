package model

import (
	"math/big"
	"testing"
	"time"
)

func period(days int) Period {
	return Period{Name: "", Duration: time.Duration(days) * 24 * time.Hour}
}

func TestBurnRatesFollowTheWorkbookAndRescale(t *testing.T) {
	want := map[int]map[Tier]string{
		30: {PageFast: "14.4", PageSlow: "6", TicketFast: "3", TicketSlow: "1"},
		28: {PageFast: "13.44", PageSlow: "5.6", TicketFast: "2.8", TicketSlow: "0.933333333333"},
		7:  {PageFast: "3.36", PageSlow: "1.4", TicketFast: "0.7", TicketSlow: "0.233333333333"},
	}
	for days, tiers := range want {
		for tier, rate := range tiers {
			if got := FormatRat(tier.BurnRate(period(days))); got != rate {
				t.Errorf("%dd %s: burn rate %s, want %s", days, tier, got, rate)
			}
		}
	}
}

func TestErrorBudgetIsExact(t *testing.T) {
	for objective, budget := range map[string]string{"999/1000": "0.001", "199/200": "0.005", "99999/100000": "0.00001", "9/10": "0.1"} {
		o, _ := new(big.Rat).SetString(objective)
		if got := FormatRat(SLO{Objective: o}.ErrorBudget()); got != budget {
			t.Errorf("budget of %s = %s, want %s", objective, got, budget)
		}
	}
}

func TestImpossibleTiersAreCappedAtATotalOutage(t *testing.T) {
	slo := SLO{Objective: big.NewRat(9, 10), Period: period(30)}
	th, capped := slo.ErrorRatioThreshold(PageFast)
	if !capped || FormatRat(th) != "1" {
		t.Errorf("page_fast at 90%%: threshold %s capped=%v, want 1 capped", FormatRat(th), capped)
	}
	th, capped = slo.ErrorRatioThreshold(PageSlow)
	if capped || FormatRat(th) != "0.6" {
		t.Errorf("page_slow at 90%%: threshold %s capped=%v, want 0.6", FormatRat(th), capped)
	}
}

func TestFormatRatNeverPrintsFloatNoise(t *testing.T) {
	cases := map[string]string{"1/1000": "0.001", "72/1000": "0.072", "1/3": "0.333333333333", "100": "100", "1/80000": "0.0000125"}
	for in, want := range cases {
		r, _ := new(big.Rat).SetString(in)
		if got := FormatRat(r); got != want {
			t.Errorf("FormatRat(%s) = %s, want %s", in, got, want)
		}
	}
}
