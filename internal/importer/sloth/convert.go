package sloth

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// windowVar matches Sloth's range template, {{.window}}, spaces allowed.
var windowVar = regexp.MustCompile(`\{\{\s*\.window\s*\}\}`)

// slogenWindow is what slogen's ratio SLO writes for the range it fills
// in (profile.WindowVar; repeated so that this package stays a leaf).
const slogenWindow = "$window"

// Converted is one Sloth service as a slogen service, with what the
// report says about it.
type Converted struct {
	From   Service
	Name   string
	Metric string // metrics.requests, read from the first SLO's total
	Labels []Label
	Page   string // alerting.page_severity, "" for slogen's default
	Ticket string
	// Runbook is alerting.runbook_url: the runbook annotation every
	// imported SLO gives alike.
	Runbook string
	SLOs    []ConvertedSLO
	Notes   Notes
}

// ConvertedSLO is one Sloth SLO as a slogen ratio SLO; Skip says it was
// left out, and its Notes why.
type ConvertedSLO struct {
	From       SLO
	Name       string // the SLO's key in slogen's spec
	Bad, Total string
	Skip       bool
	Notes      Notes
}

// Notes is the report for one service or SLO.
type Notes = importer.Notes

// Convert maps Sloth's services onto slogen's. Only problems slogen's
// spec could not express are errors; what is lost is reported instead.
func Convert(services []Service) ([]Converted, error) {
	seen := map[string]Pos{}
	var out []Converted
	for _, s := range services {
		c := convertService(s)
		if at, dup := seen[c.Name]; dup {
			return nil, &Error{At: s.At, Field: "service", Msg: fmt.Sprintf("%q is also the service at %s; slogen needs a name per service: rename one", c.Name, at)}
		}
		seen[c.Name] = s.At
		if err := uniqueSLOs(c); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// uniqueSLOs refuses two SLOs of a service that slogen would name alike.
func uniqueSLOs(c Converted) error {
	seen := map[string]Pos{}
	for _, s := range c.SLOs {
		if at, dup := seen[s.Name]; dup && !s.Skip {
			return &Error{At: s.From.At, Field: "name", Msg: fmt.Sprintf("SLO %q of service %q is also the SLO at %s; rename one", s.Name, c.Name, at)}
		}
		seen[s.Name] = s.From.At
	}
	return nil
}

func convertService(s Service) Converted {
	c := Converted{From: s}
	var renamed string
	if c.Name, renamed = importer.Name(s.Name); renamed != "" {
		c.Notes.Changed = append(c.Notes.Changed, "service "+renamed)
	}
	for _, slo := range s.SLOs {
		c.SLOs = append(c.SLOs, convertSLO(slo))
	}
	c.Metric = requestMetric(c.SLOs)
	if c.Empty() {
		c.Notes.Dropped = append(c.Notes.Dropped, "every SLO: the service is left out, since slogen has no SLO of it to build")
		return c
	}
	if len(s.Plugins) > 0 {
		c.Notes.Dropped = append(c.Notes.Dropped, "slo_plugins "+strings.Join(s.Plugins, ", ")+": slogen runs no Sloth plugins")
	}
	c.Labels = c.alertLabels()
	c.Runbook = c.runbook()
	c.Page = c.severity(func(a SLO) Alert { return a.Page }, "page")
	c.Ticket = c.severity(func(a SLO) Alert { return a.Ticket }, "ticket")
	return c
}

// Empty says no SLO of the service could be carried.
func (c Converted) Empty() bool {
	return !slices.ContainsFunc(c.SLOs, func(s ConvertedSLO) bool { return !s.Skip })
}

// requestMetric is the metric the first SLO that has one counts its
// events with.
func requestMetric(slos []ConvertedSLO) string {
	for _, s := range slos {
		for _, q := range []string{s.Total, s.Bad} {
			if name := importer.QueryMetric(q); !s.Skip && name != "" {
				return name
			}
		}
	}
	return ""
}

func convertSLO(s SLO) ConvertedSLO {
	c := ConvertedSLO{From: s}
	n := &c.Notes
	var renamed string
	c.Name, renamed = importer.Name(s.Name)
	if renamed != "" {
		n.Changed = append(n.Changed, "SLO "+renamed)
	}
	switch {
	case s.SLIPlugin != "":
		c.Skip = true
		n.Dropped = append(n.Dropped, fmt.Sprintf("sli.plugin %s: slogen cannot run Sloth's SLI plugins, so the SLO is left out; write its queries as a ratio SLO (bad, total)", s.SLIPlugin))
	case s.ErrorRatio != "":
		c.Bad, c.Total = "("+window(s.ErrorRatio)+")", "vector(1)"
		n.Changed = append(n.Changed, "sli.raw: bad is the error ratio query and total vector(1), so the SLI is that ratio averaged over time, as Sloth's; slogen's low-traffic guard then counts one event a second, and its traffic-drop alert and generated tests do not apply")
	default:
		c.Bad, c.Total = window(s.ErrorQuery), window(s.TotalQuery)
		n.Exact = append(n.Exact, "sli.events: error_query as bad, total_query as total, {{.window}} as $window")
	}
	for _, q := range []string{c.Bad, c.Total} {
		if why := notPromQL(q); why != "" && !c.Skip {
			c.Skip = true
			n.Dropped = append(n.Dropped, why+"; the SLO is left out")
		}
	}
	if s.Objective >= 100 && !c.Skip {
		c.Skip = true
		n.Dropped = append(n.Dropped, "objective 100: slogen takes objectives strictly below 100 (a 100 % SLO has no budget to burn); the SLO is left out")
	}
	if c.Skip {
		return c
	}
	n.Exact = append(n.Exact, "objective "+strconv.FormatFloat(s.Objective, 'f', -1, 64))
	if s.Description != "" {
		n.Exact = append(n.Exact, "description")
	}
	n.Exact = append(n.Exact, "windows: a 30d period; page when 1h and 5m burn over 14.4x or 6h and 30m over 6x, ticket when 1d and 2h burn over 3x or 3d and 6h over 1x, with no `for`, as Sloth's defaults (alerting.for sets slogen's tickets' to 0s)")
	n.Changed = append(n.Changed, alertChanges(s, c.Name)...)
	if len(s.Plugins) > 0 {
		n.Dropped = append(n.Dropped, "plugins "+strings.Join(s.Plugins, ", ")+": slogen runs no Sloth plugins")
	}
	for _, tier := range []struct {
		name string
		a    Alert
	}{{"page_alert", s.Page}, {"ticket_alert", s.Ticket}} {
		if tier.a.Disable {
			n.Dropped = append(n.Dropped, tier.name+".disable: slogen always writes the page and both tickets; route the one you do not want to a null receiver (alerting.receivers)")
		}
		for _, a := range tier.a.Annotations {
			n.Dropped = append(n.Dropped, fmt.Sprintf("%s.annotations.%s (%s): slogen has no per-tier annotations", tier.name, a.Key, a.At))
		}
	}
	return c
}

func alertChanges(s SLO, key string) []string {
	name := s.AlertName
	if name == "" {
		name = "(none)"
	}
	return []string{
		fmt.Sprintf("alerts: Sloth's %s page and ticket become SLOErrorBudgetBurn{slo=%q}, one page (tier=\"page\") and two tickets (tier=\"ticket_fast\", \"ticket_slow\"), each with slogen's low-traffic guard (alerting.min_events)", name, key),
		"slogen adds SLOMetricsAbsent and the budget alerts (alerting.budget)",
	}
}

// notPromQL says why slogen cannot read a query, or "" when it can: a
// template other than {{.window}}, or another dialect (MetricsQL).
func notPromQL(q string) string {
	if strings.Contains(q, "{{") {
		return "a template other than {{.window}} in a query: slogen fills in only the range"
	}
	if _, err := promcompat.Parser().ParseExpr(strings.ReplaceAll(q, slogenWindow, "5m")); err != nil {
		return fmt.Sprintf("a query that is not Prometheus 2.42's PromQL (%v)", err)
	}
	return ""
}

func window(q string) string {
	return windowVar.ReplaceAllLiteralString(strings.TrimSpace(q), slogenWindow)
}

// runbookKeys are the annotations that name a runbook.
var runbookKeys = []string{"runbook_url", "runbook"}

// runbook is the runbook every imported SLO's alerts link to, when they
// all link to the same one: slogen's runbook_url is the service's. Every
// other annotation is reported as not carried.
func (c *Converted) runbook() string {
	urls := map[string]bool{}
	for _, s := range c.SLOs {
		if !s.Skip {
			urls[annotation(s.From.Annotations, runbookKeys)] = true
		}
	}
	shared := ""
	if len(urls) == 1 {
		for u := range urls {
			shared = u
		}
	}
	for i := range c.SLOs {
		s := &c.SLOs[i]
		if s.Skip {
			continue
		}
		for _, a := range s.From.Annotations {
			if slices.Contains(runbookKeys, a.Key) && a.Value == shared {
				s.Notes.Exact = append(s.Notes.Exact, fmt.Sprintf("alerting.annotations.%s as alerting.runbook_url", a.Key))
				continue
			}
			why := "slogen writes its own summary and description"
			if slices.Contains(runbookKeys, a.Key) {
				why = "slogen's runbook_url is the service's, and the other SLOs link elsewhere"
			}
			s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("alerting.annotations.%s (%s): %s", a.Key, a.At, why))
		}
	}
	return shared
}

// annotation is the value of the first of keys that as holds.
func annotation(as []Label, keys []string) string {
	for _, k := range keys {
		for _, a := range as {
			if a.Key == k {
				return a.Value
			}
		}
	}
	return ""
}
