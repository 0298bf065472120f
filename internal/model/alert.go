package model

import "time"

// BurnRule is one burn-rate alert rule of an SLO: it fires while any of
// its tiers' conditions holds, and its tier label is Name.
//
// The two page tiers make one page, as in the SRE workbook and Sloth: two
// page alerts would each be a member of the notification group, and when
// the fast one resolved a few minutes after an outage while the slow one
// still fired, the group would change and Alertmanager would notify the
// page receiver again, FIRING, after the service was well. One alert stays
// the same alert, without a gap, until both tiers are clear.
//
// The tickets stay a rule per tier: their `for` differs (1h and 3h by
// default) and a rule has one, so merging them would open a slow burn's
// ticket hours sooner or a fast burn's hours later than the spec says.
type BurnRule struct {
	Name  string
	Tiers []Tier
}

// PageRule is the page: either page tier.
var PageRule = BurnRule{Name: "page", Tiers: []Tier{PageFast, PageSlow}}

// BurnRules lists an SLO's burn-rate rules, the page first.
var BurnRules = []BurnRule{
	PageRule,
	{Name: string(TicketFast), Tiers: []Tier{TicketFast}},
	{Name: string(TicketSlow), Tiers: []Tier{TicketSlow}},
}

// IsPage reports whether the rule pages rather than opening a ticket.
func (b BurnRule) IsPage() bool { return b.Tiers[0].IsPage() }

// RuleOf is the burn-rate rule a tier's condition belongs to.
func RuleOf(t Tier) BurnRule {
	for _, b := range BurnRules {
		for _, bt := range b.Tiers {
			if bt == t {
				return b
			}
		}
	}
	panic("model: no burn rule for tier " + string(t))
}

// Hold is how long a burn-rate rule's condition must hold before it fires:
// the longest `for` the spec gives any of its tiers, so that a spec that
// held either page tier still holds the one page at least that long.
func (a Alerting) Hold(b BurnRule) time.Duration {
	var d time.Duration
	for _, t := range b.Tiers {
		d = max(d, a.For[t])
	}
	return d
}

// BurnRuleNamed is the burn-rate rule whose tier label is name.
func BurnRuleNamed(name string) (BurnRule, bool) {
	for _, b := range BurnRules {
		if b.Name == name {
			return b, true
		}
	}
	return BurnRule{}, false
}
