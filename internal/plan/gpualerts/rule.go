package gpualerts

import (
	"math/big"
	"strconv"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// alertDef is what an alert's write function makes of it for one
// service: its expression and text, and the labels it keeps.
type alertDef struct {
	expr    pql.Expr
	summary string // the condition, for vet
	// title is the summary annotation after the service's name, a
	// template naming the GPU or replica and the value; summary, escaped,
	// where it is empty.
	title       string
	description string   // a template: text() escapes what the spec wrote
	keeps       []string // labels of its input series the alert keeps
	from        string   // the series it keeps them from
}

// Alert is what a generated test may know of an alert, all but its
// expression: its name, `for`, and the labels and annotations it fires
// with (read-only: its rule shares them). Keeps are the labels of its
// input series that it fires with too, From the series they come from:
// a DCGM field's name, or the runtime metric's selector as printed.
type Alert struct {
	Name        string
	For         time.Duration
	Summary     string
	Labels      map[string]string
	Annotations map[string]string
	Keeps       []string
	From        string
}

// Skip is an alert a service does not get, and why.
type Skip struct {
	Alert, Reason string
}

func (d alertDef) alert(e entry, svc model.Service) Alert {
	return Alert{Name: e.name, For: e.hold, Summary: d.summary, Labels: labelsOf(e.name, svc), Annotations: d.annotations(e.name, svc),
		Keeps: d.keeps, From: d.from}
}

// rule is the alert's rule; it shares a's maps, which neither changes.
func (d alertDef) rule(a Alert) rules.Rule {
	return rules.Rule{
		Alert:       a.Name,
		Expr:        d.expr,
		For:         forField(a.For),
		Labels:      a.Labels,
		Annotations: a.Annotations,
	}
}

func forField(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return genfile.Duration(d)
}

// labels are service, severity and the spec's alerting labels. Every
// alert here is a cause, a ticket unless the spec pages on it.
func labelsOf(alert string, svc model.Service) map[string]string {
	ls := map[string]string{"service": svc.Name, "severity": svc.Alerting.CauseSeverity(alert)}
	for _, l := range svc.Alerting.Labels {
		ls[l.Name] = l.Value
	}
	return ls
}

// annotations name the GPU or replica and the value where the alert has
// them: templates that only $labels and $value fill in, with
// humanizePercentage or humanize, which Prometheus 2.42 and 3 render
// alike, so generated tests can predict them (gputests renders them).
func (d alertDef) annotations(alert string, svc model.Service) map[string]string {
	return d.annotationsFor(ref(rules.EscapeTemplate(svc.Name)+": "), rules.Runbook(svc, alert))
}

// annotationsFor starts the summary with who, the service as a template
// writes it, and links the runbook.
func (d alertDef) annotationsFor(who ref, runbook string) map[string]string {
	title := d.title
	if title == "" {
		title = rules.EscapeTemplate(d.summary)
	}
	return map[string]string{
		"summary":     string(who) + title,
		"description": d.description,
		"runbook_url": rules.EscapeTemplate(runbook),
	}
}

// num writes a number as the spec wrote it: 90, 0.001, 1.1.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// ratio turns a percentage into a ratio as exact as a float is: 90 is
// 0.9, never 0.8999999999999999.
func ratio(percent float64) pql.Expr {
	r, _ := new(big.Rat).SetString(num(percent))
	return pql.Decimal(model.FormatRat(r.Quo(r, big.NewRat(100, 1))))
}
