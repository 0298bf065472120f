package model

import (
	"math/big"
	"time"
)

// Tier is one multiwindow burn-rate alert of the SRE workbook table.
type Tier string

// The four tiers, fastest first.
const (
	PageFast   Tier = "page_fast"
	PageSlow   Tier = "page_slow"
	TicketFast Tier = "ticket_fast"
	TicketSlow Tier = "ticket_slow"
)

// Tiers lists every tier, fastest first.
var Tiers = []Tier{PageFast, PageSlow, TicketFast, TicketSlow}

// Windows is the long and short window of a tier.
type Windows struct {
	Long, Short time.Duration
}

// TierWindows are the workbook's windows; the short one is a twelfth of the long.
var TierWindows = map[Tier]Windows{
	PageFast:   {time.Hour, 5 * time.Minute},
	PageSlow:   {6 * time.Hour, 30 * time.Minute},
	TicketFast: {24 * time.Hour, 2 * time.Hour},
	TicketSlow: {72 * time.Hour, 6 * time.Hour},
}

// budgetSpent is the fraction of the period's budget a tier lets burn in
// its long window before it fires: 2 %, 5 %, 10 %, 10 %.
var budgetSpent = map[Tier]*big.Rat{
	PageFast:   big.NewRat(2, 100),
	PageSlow:   big.NewRat(5, 100),
	TicketFast: big.NewRat(10, 100),
	TicketSlow: big.NewRat(10, 100),
}

// IsPage reports whether the tier pages rather than opening a ticket.
func (t Tier) IsPage() bool { return t == PageFast || t == PageSlow }

// BurnRate is the tier's burn-rate factor for a period: budget spent ×
// period / long window. For 30d that is 14.4, 6, 3 and 1.
func (t Tier) BurnRate(p Period) *big.Rat {
	f := new(big.Rat).Mul(budgetSpent[t], big.NewRat(int64(p.Duration), 1))
	return f.Quo(f, big.NewRat(int64(TierWindows[t].Long), 1))
}

// ErrorRatioThreshold is the error ratio above which a tier fires: burn
// rate × budget. An error ratio cannot pass 1, so when the product does the
// tier could never fire; it is capped at 1 (fire on a total outage) and
// capped is true so that callers can warn.
func (s SLO) ErrorRatioThreshold(t Tier) (threshold *big.Rat, capped bool) {
	r := new(big.Rat).Mul(t.BurnRate(s.Period), s.ErrorBudget())
	if r.Cmp(big.NewRat(1, 1)) >= 0 {
		return big.NewRat(1, 1), true
	}
	return r, false
}
