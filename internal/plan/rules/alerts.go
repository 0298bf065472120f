package rules

import (
	"fmt"
	"maps"
	"math/big"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// burnAlert fires while any tier of the rule burns: both windows of the
// tier over its rate, and the long window saw enough requests to mean
// something. Each tier's condition keeps the SLO's labels, so `or` joins
// them into one alert per SLO (and group_by value), whichever holds.
func burnAlert(svc model.Service, slo model.SLO, b model.BurnRule) Rule {
	return burnRule(svc, slo, b, pql.Chain(parser.LOR, pql.Match{}, burnTiers(svc, slo, b)...))
}

// burnTiers are the conditions of the rule's tiers, one per tier.
func burnTiers(svc model.Service, slo model.SLO, b model.BurnRule) []pql.Expr {
	var conds []pql.Expr
	for _, t := range b.Tiers {
		conds = append(conds, tierCondition(svc, slo, t))
	}
	return conds
}

// burnRule is the burn-rate alert of the rule on expr.
func burnRule(svc model.Service, slo model.SLO, b model.BurnRule, expr pql.Expr) Rule {
	return Rule{
		Alert:       BurnAlert,
		Expr:        expr,
		For:         forClause(svc.Alerting.Hold(b)),
		Labels:      BurnLabels(svc, slo, b),
		Annotations: BurnAnnotations(svc, slo, b),
	}
}

// tierCondition holds when both windows of a tier burn faster than the
// tier's rate and the long window saw at least min_events requests.
func tierCondition(svc model.Service, slo model.SLO, t model.Tier) pql.Expr {
	w := model.TierWindows[t]
	threshold, capped := slo.ErrorRatioThreshold(t)
	over := pql.Gt
	if capped {
		over = pql.Ge // only a total outage can reach a capped tier
	}
	var and pql.Match
	if svc.Global != nil { // a ruler's own recordings may carry its external labels, the summed ones not
		and = pql.On(sloKeys(slo)...)
	}
	ratio := func(d time.Duration) pql.Expr { return over(burnRatio(svc, slo, d, and), decimal(threshold)) }
	conds := []pql.Expr{ratio(w.Long), ratio(w.Short)}
	if least := svc.Alerting.MinEvents; least > 0 {
		requests := pql.Mul(windowRate(Requests(w.Long), w.Long, svc, slo), pql.Num(w.Long.Seconds()))
		conds = append(conds, pql.Ge(requests, pql.Num(float64(least))))
	}
	return pql.Block(pql.Chain(parser.LAND, and, conds...))
}

// burnRatio is the error ratio a tier compares over w: ErrorRatio, and
// over the windows read from the period group's samples (a day and more)
// an upper bound of it. Their last sample may be a PeriodInterval old, so
// the base window's errors, recorded every evaluation, are added as a
// share of w: they hold every error since that sample, and a ticket
// fires no later than on raw series. At a steady error ratio this reads
// the true one times 1 + BaseWindow/w (1d: 1.0035, 3d: 1.0012), which the
// short window, read exactly, keeps from opening a ticket. Where the base
// window has no recording (a scrape gap), the samples alone are read, so
// that a gap cannot reset a ticket's `for`. m matches the two windows'
// rates as tierCondition's `and` does; across clusters the sum keeps the
// ruler's own labels (group_left), which its request rate has too.
func burnRatio(svc model.Service, slo model.SLO, w time.Duration, m pql.Match) pql.Expr {
	if FromRawSeries(w) {
		return ErrorRatio(svc, slo, w)
	}
	if svc.Global != nil {
		m = m.GroupLeft()
	}
	base := model.BaseWindow
	sampled := windowRate(Errors(w), w, svc, slo)
	fresh := pql.Div(windowRate(Errors(base), base, svc, slo), pql.Num(float64(w/base)))
	errors := pql.Or(pql.Add(sampled, fresh, m), sampled)
	return pql.Div(pql.Paren(errors), RequestRate(svc, slo, w))
}

// ErrorRatio is the SLO's recorded error ratio over w as its burn alerts
// read it (over the windows from raw series; see burnRatio), its series
// narrowed by the matchers given (a dashboard's picked group values): a
// panel that draws it draws what the alerts compare.
func ErrorRatio(svc model.Service, slo model.SLO, w time.Duration, narrow ...*labels.Matcher) pql.Expr {
	return pql.Div(windowRate(Errors(w), w, svc, slo, narrow...), RequestRate(svc, slo, w, narrow...))
}

// RequestRate is the SLO's recorded request rate over w as its burn
// alerts read it, narrowed as ErrorRatio is: across clusters, an HA pair's
// copies counted once.
func RequestRate(svc model.Service, slo model.SLO, w time.Duration, narrow ...*labels.Matcher) pql.Expr {
	return windowRate(Requests(w), w, svc, slo, narrow...)
}

// BurnLabels are the labels of a burn-rate alert: its tier, page or the
// ticket's, to route and inhibit by without regular expressions, and a
// ticket's window pair. The page has no window labels: they would change
// the alert, and so the notification group, when the other tier took over.
func BurnLabels(svc model.Service, slo model.SLO, b model.BurnRule) map[string]string {
	ls := alertLabels(svc, severity(svc, b))
	ls["slo"] = slo.Name
	ls["tier"] = b.Name
	if len(b.Tiers) == 1 {
		w := model.TierWindows[b.Tiers[0]]
		ls["long_window"] = genfile.Duration(w.Long)
		ls["short_window"] = genfile.Duration(w.Short)
	}
	return ls
}

func severity(svc model.Service, b model.BurnRule) string {
	if b.IsPage() {
		return svc.Alerting.PageSeverity
	}
	return svc.Alerting.TicketSeverity
}

func alertLabels(svc model.Service, severity string) map[string]string {
	ls := map[string]string{"service": svc.Name, "severity": severity}
	for _, l := range svc.Alerting.Labels {
		ls[l.Name] = l.Value
	}
	return ls
}

// BurnAnnotations are static text: promtool compares annotations exactly,
// so generated tests can predict them, and $value, an error ratio over
// whichever window pair holds, would differ between Prometheus versions
// (2.42's ranges hold one sample more than 3's) by more than its printed
// digits. They carry the figures that decide: each tier's rate and
// windows and the share of the budget it spends. A split SLO's summary
// names the alert's values and a global alert's description the clusters
// that burn, from a query: BurnAnnotationsAt expands both.
func BurnAnnotations(svc model.Service, slo model.SLO, b model.BurnRule) map[string]string {
	var burns, paces []string
	for _, t := range b.Tiers {
		w := model.TierWindows[t]
		burns = append(burns, fmt.Sprintf("%s over both the last %s and the last %s, which spends %s of the budget in %s",
			pace(t.BurnRate(slo.Period)), genfile.Duration(w.Long), genfile.Duration(w.Short), budgetShare(t), genfile.Duration(w.Long)))
		paces = append(paces, fmt.Sprintf("%s over %s", pace(t.BurnRate(slo.Period)), genfile.Duration(w.Long)))
	}
	description := EscapeTemplate(fmt.Sprintf("The %s SLO of %s (objective %s%% over %s) has spent error budget %s.",
		slo.Name, svc.Name, Percent(slo.Objective), slo.Period.Name, strings.Join(burns, "; or ")))
	if b.IsPage() {
		description += " The page stays one alert until neither holds."
	}
	if svc.Global != nil {
		// The slowest tier's threshold is the rule's lowest: a page that
		// its slow half alone holds still names the clusters burning.
		description += burningClusters(svc, slo, b.Tiers[len(b.Tiers)-1])
	}
	summary := EscapeTemplate(fmt.Sprintf("%s has spent its %s error budget %s", svc.Name, slo.Name, strings.Join(paces, ", or ")))
	if len(slo.GroupBy) > 0 {
		var values []string
		for _, l := range slo.GroupBy {
			values = append(values, fmt.Sprintf("%s {{ $labels.%s }}", l, l))
		}
		summary += " for " + strings.Join(values, ", ")
	}
	return withRunbook(svc, BurnAlert, map[string]string{"summary": summary, "description": description})
}

// pace says how fast a burn rate spends the budget against the rate the
// period earns it: 1 is as fast as it is earned, which spends the whole
// budget by the period's end.
func pace(burnRate *big.Rat) string {
	if burnRate.Cmp(big.NewRat(1, 1)) == 0 {
		return "faster than it earns it"
	}
	return fmt.Sprintf("at more than %sx the rate it earns it", model.FormatRat(burnRate))
}

// BurnAnnotationsAt are a burn alert's annotations as Prometheus expands
// them for an alert with labels ls (a split SLO's summary names its
// values) when clusters, worst first, burn over the rule's slowest tier's
// threshold (a global alert's description names them): what tests expect.
func BurnAnnotationsAt(svc model.Service, slo model.SLO, b model.BurnRule, clusters []string, ls map[string]string) map[string]string {
	a := BurnAnnotations(svc, slo, b)
	for _, l := range slo.GroupBy {
		a["summary"] = strings.ReplaceAll(a["summary"], fmt.Sprintf("{{ $labels.%s }}", l), ls[l])
	}
	if svc.Global == nil {
		return a
	}
	names := "none"
	if len(clusters) > 0 {
		names = strings.Join(clusters, ", ")
	}
	tmpl := burningClusters(svc, slo, b.Tiers[len(b.Tiers)-1])
	lead, _, _ := strings.Cut(tmpl, "{{")
	a["description"] = strings.Replace(a["description"], tmpl, lead+names+".", 1)
	return a
}

func budgetShare(t model.Tier) string {
	return map[model.Tier]string{model.PageFast: "2%", model.PageSlow: "5%", model.TicketFast: "10%", model.TicketSlow: "10%"}[t]
}

func withRunbook(svc model.Service, alert string, a map[string]string) map[string]string {
	a["runbook_url"] = EscapeTemplate(Runbook(svc, alert))
	return a
}

// RunbookBase is where runbook links point when the spec sets neither
// runbook_url nor runbook_base_url: docs/runbooks.md, slogen's runbook
// rendered for an example service, at the alert's section.
const RunbookBase = "https://github.com/slogen-dev/slogen/blob/main/docs/runbooks.md#"

// RunbookFile is the runbook slogen writes in a service's directory, or
// for a fleet at the top of the output, which alerting.runbook_base_url
// links point into.
const RunbookFile = "runbook.md"

// Runbook is an alert's runbook URL: the spec's one URL for every alert,
// else the alert's section of the service's own runbook under
// runbook_base_url, else its section of docs/runbooks.md.
func Runbook(svc model.Service, alert string) string {
	a := svc.Alerting
	switch {
	case a.RunbookURL != "":
		return a.RunbookURL
	case a.RunbookBaseURL != "":
		return strings.TrimSuffix(a.RunbookBaseURL, "/") + "/" + svc.Name + "/" + RunbookFile + "#" + RunbookAnchor(alert)
	}
	return RunbookBase + RunbookAnchor(alert)
}

// FleetRunbook is an alert's runbook URL in a fleet's build, which writes
// one runbook for the whole output: under runbook_base_url, the alert's
// section of that runbook, a link that names no service; else as Runbook.
func FleetRunbook(svc model.Service, alert string) string {
	a := svc.Alerting
	if a.RunbookURL == "" && a.RunbookBaseURL != "" {
		return strings.TrimSuffix(a.RunbookBaseURL, "/") + "/" + RunbookFile + "#" + RunbookAnchor(alert)
	}
	return Runbook(svc, alert)
}

// LinkFleetRunbook points the runbook links of the groups' alerts, which
// the builders wrote with Runbook, at the fleet's runbook (FleetRunbook).
// Only runbook_base_url links differ, so only those are rewritten, each
// into a new map: the others cost a fleet's service nothing.
func LinkFleetRunbook(svc model.Service, groups ...[]Group) {
	a := svc.Alerting
	if a.RunbookURL != "" || a.RunbookBaseURL == "" {
		return
	}
	for _, gs := range groups {
		for _, g := range gs {
			for i, r := range g.Rules {
				if _, ok := r.Annotations["runbook_url"]; ok && r.Alert != "" {
					ann := maps.Clone(r.Annotations)
					ann["runbook_url"] = EscapeTemplate(FleetRunbook(svc, r.Alert))
					g.Rules[i].Annotations = ann
				}
			}
		}
	}
}

// RunbookAnchor is the anchor of an alert's runbook section: GitHub's
// anchor of a heading that is the alert's name, its name in lower case.
func RunbookAnchor(alert string) string { return strings.ToLower(alert) }

// EscapeTemplate keeps spec text from being run as a Prometheus template:
// annotations and labels are expanded as templates when an alert fires.
func EscapeTemplate(s string) string {
	if !strings.Contains(s, "{{") && !strings.Contains(s, "}}") {
		return s
	}
	r := strings.NewReplacer("{{", `{{ "{{" }}`, "}}", `{{ "}}" }}`)
	return r.Replace(s)
}

// forClause is an alert's `for`, left out when the alert fires at once.
func forClause(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return genfile.Duration(d)
}
