package openslo

import (
	"fmt"
	"math"
	"strconv"

	"github.com/slogen-dev/slogen/internal/importer"
)

// tier is one of slogen's burn-rate alert tiers over a 30d period
// (docs/slo-rules.md): its long windows in hours and their burn rates.
type tier struct {
	name, class string // class: page or ticket, whose severity it takes
	hours       []float64
	rates       []float64
	says        string
}

var tiers = []tier{
	{"page", "page", []float64{1, 6}, []float64{14.4, 6}, "1h and 5m over 14.4x, or 6h and 30m over 6x"},
	{"ticket_fast", "ticket", []float64{24}, []float64{3}, "1d and 2h over 3x"},
	{"ticket_slow", "ticket", []float64{72}, []float64{1}, "3d and 6h over 1x"},
}

// alertOf is what a condition asks of a tier, for the service's
// severities and alerting.for.
type alertOf struct {
	tier       tier
	severity   string
	alertAfter string
	at         importer.Pos
}

// sloAlerts maps the SLO's alert policies onto slogen's tiers.
func sloAlerts(s slo, c *importer.SLO) []alertOf {
	n := &c.Notes
	n.Changed = append(n.Changed, fmt.Sprintf("alerts: SLOErrorBudgetBurn{slo=%q}, one page (tier=\"page\") and two tickets (tier=\"ticket_fast\", \"ticket_slow\") whatever the policies ask, each with slogen's low-traffic guard (alerting.min_events); slogen adds SLOMetricsAbsent and the budget alerts (alerting.budget)", c.Name))
	if len(s.Policies) == 0 {
		n.Changed = append(n.Changed, "no alertPolicies: slogen's tiers are written anyway")
	}
	scale := periodDays(c.Window) / 30
	var out []alertOf
	for _, p := range s.Policies {
		policyNotes(p, n)
		for _, cond := range p.Conditions {
			if a, ok := mapCondition(cond, scale, n); ok {
				out = append(out, a)
			}
		}
	}
	return out
}

func policyNotes(p policy, n *importer.Notes) {
	if p.NoData {
		n.Exact = append(n.Exact, fmt.Sprintf("AlertPolicy %s (%s) alertWhenNoData as SLOMetricsAbsent", p.Name, p.At))
	}
	if p.Resolved {
		n.Dropped = append(n.Dropped, fmt.Sprintf("AlertPolicy %s (%s) alertWhenResolved: whether a resolved alert notifies is each Alertmanager receiver's send_resolved", p.Name, p.At))
	}
	if p.Targets > 0 {
		n.Dropped = append(n.Dropped, fmt.Sprintf("AlertPolicy %s (%s) notificationTargets: route slogen's tiers with alerting.receivers (page, ticket) in alertmanager.yaml", p.Name, p.At))
	}
}

// mapCondition finds the tier a burn-rate condition is closest to, by
// its lookback window.
func mapCondition(c condition, scale float64, n *importer.Notes) (alertOf, bool) {
	what := fmt.Sprintf("AlertCondition %s (%s)", c.Name, c.At)
	switch {
	case c.Kind != "burnrate":
		n.Dropped = append(n.Dropped, fmt.Sprintf("%s kind %s: slogen's SLO alerts are burn-rate alerts", what, c.Kind))
		return alertOf{}, false
	case c.Op == "lt" || c.Op == "lte":
		n.Dropped = append(n.Dropped, fmt.Sprintf("%s op %s: a burn-rate alert fires when the rate is above its threshold, as slogen's tiers do", what, c.Op))
		return alertOf{}, false
	}
	hours := durationDays(c.Lookback) * 24
	t := tiers[2]
	switch {
	case hours <= 6:
		t = tiers[0]
	case hours <= 24:
		t = tiers[1]
	}
	exact := false
	for i, h := range t.hours {
		exact = exact || (h == hours && math.Abs(t.rates[i]*scale-c.Threshold) < 1e-3)
	}
	asks := fmt.Sprintf("%s: burn rate over %s above %s", what, c.Lookback, strconv.FormatFloat(c.Threshold, 'g', -1, 64))
	if exact {
		n.Exact = append(n.Exact, fmt.Sprintf("%s as slogen's %s (%s)", asks, t.name, t.says))
	} else {
		n.Changed = append(n.Changed, fmt.Sprintf("%s becomes slogen's %s (%s%s): slogen's windows and rates are fixed, scaled to the period", asks, t.name, t.says, scaled(scale)))
	}
	if t.class == "page" && c.AlertAfter != "" && durationDays(c.AlertAfter) > 0 {
		n.Dropped = append(n.Dropped, fmt.Sprintf("%s alertAfter %s: slogen's page fires as soon as both its windows burn", what, c.AlertAfter))
	}
	return alertOf{tier: t, severity: c.Severity, alertAfter: c.AlertAfter, at: c.At}, true
}

func scaled(scale float64) string {
	if scale == 1 {
		return ""
	}
	return fmt.Sprintf(", rates times %s for the period", strconv.FormatFloat(scale, 'g', 4, 64))
}

func periodDays(window string) float64 {
	if window == "" {
		return 30
	}
	return durationDays(window)
}

// alerting sets the service's severities and tickets' alerting.for
// where every condition that maps to them agrees.
func alerting(s *importer.Service, alerts []alertOf) {
	s.Page = severity(s, alerts, "page")
	s.Ticket = severity(s, alerts, "ticket")
	for _, name := range []string{"ticket_fast", "ticket_slow"} {
		if v, ok := ticketFor(s, alerts, name); ok {
			s.For = append(s.For, importer.Label{Key: name, Value: v})
		}
	}
	if len(s.For) > 0 {
		s.ForWhy = "The AlertConditions' alertAfter, for the tickets they map to."
	}
}

func severity(s *importer.Service, alerts []alertOf, class string) string {
	sev, same := "", true
	for _, a := range alerts {
		if a.tier.class == class {
			same = same && (sev == "" || sev == a.severity)
			sev = a.severity
		}
	}
	switch {
	case !same:
		s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("AlertCondition severities of the %s tier: the conditions differ and slogen's %s_severity is the service's; slogen's default is used", class, class))
		return ""
	case sev != "":
		s.Notes.Exact = append(s.Notes.Exact, fmt.Sprintf("AlertCondition severity %q as alerting.%s_severity", sev, class))
	}
	return sev
}

// ticketFor is the alertAfter every condition mapped to a ticket tier
// gives, as a duration slogen's alerting.for takes. Where none gives one,
// slogen's defaults stay: OpenSLO's 0m would ticket every short spike.
func ticketFor(s *importer.Service, alerts []alertOf, name string) (string, bool) {
	var vals []string
	mapped := false
	for _, a := range alerts {
		if a.tier.name == name {
			mapped = true
			if a.alertAfter != "" {
				vals = append(vals, forDuration(a.alertAfter))
			}
		}
	}
	if len(vals) == 0 {
		if mapped {
			s.Notes.Changed = append(s.Notes.Changed, fmt.Sprintf("the conditions mapped to %s give no alertAfter: slogen's default alerting.for holds it (ticket_fast 1h, ticket_slow 3h)", name))
		}
		return "", false
	}
	for _, v := range vals {
		if v != vals[0] {
			s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("alertAfter of the conditions mapped to %s: they differ, and slogen's alerting.for is the service's; slogen's default is used", name))
			return "", false
		}
	}
	return vals[0], true
}

// forDuration writes alertAfter as a Prometheus duration: whole minutes.
func forDuration(d string) string {
	mins := math.Round(durationDays(d) * 1440)
	if mins == 0 {
		return "0s"
	}
	return strconv.FormatFloat(mins, 'f', 0, 64) + "m"
}
