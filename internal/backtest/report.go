package backtest

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	slomodel "github.com/slogen-dev/slogen/internal/model"
)

// Count is how many alerts of each kind an SLO would have raised.
type Count struct {
	Pages, Tickets int
}

// Counts are the alerts per SLO and, within it, per tier (or alert name
// for alerts without a tier). Pages and tickets go by severity.
func Counts(svc slomodel.Service, r Result) (perSLO map[string]Count, perTier map[string]map[string]int) {
	perSLO, perTier = map[string]Count{}, map[string]map[string]int{}
	for _, s := range r.Spans {
		slo := s.Labels.Get("slo")
		kind := s.Labels.Get("tier")
		if kind == "" {
			kind = s.Alert()
		}
		if perTier[slo] == nil {
			perTier[slo] = map[string]int{}
		}
		perTier[slo][kind]++
		c := perSLO[slo]
		if s.Labels.Get("severity") == svc.Alerting.PageSeverity {
			c.Pages++
		} else {
			c.Tickets++
		}
		perSLO[slo] = c
	}
	return perSLO, perTier
}

// WriteTable writes every alert span, then a verdict line per SLO.
func WriteTable(w io.Writer, svc slomodel.Service, r Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ALERT\tSERVICE\tSLO\tTIER\tSEVERITY\tFIRING\tRESOLVED\tFOR")
	for _, s := range r.Spans {
		resolved, lasted := "still firing", r.To.Sub(s.FiringAt)
		if !s.ResolvedAt.IsZero() {
			resolved, lasted = stamp(s.ResolvedAt), s.ResolvedAt.Sub(s.FiringAt)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s.Alert(), s.Labels.Get("service"), dash(s.Labels.Get("slo")),
			dash(s.Labels.Get("tier")), s.Labels.Get("severity"), stamp(s.FiringAt), resolved, genfile.Duration(lasted.Truncate(time.Second)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range Verdicts(svc, r) {
		fmt.Fprintln(w, line)
	}
	return nil
}

// Verdicts say per SLO what it would have raised and spent, e.g.
// "chat/availability: 2 pages, 1 ticket; budget used 34%".
func Verdicts(svc slomodel.Service, r Result) []string {
	perSLO, _ := Counts(svc, r)
	var out []string
	for _, slo := range svc.SLOs {
		c := perSLO[slo.Name]
		used := "no data"
		if u, ok := r.BudgetUsed[slo.Name]; ok {
			used = strconv.FormatFloat(u*100, 'f', 0, 64) + "%"
		}
		out = append(out, fmt.Sprintf("%s/%s: %s, %s; budget used %s", svc.Name, slo.Name, plural(c.Pages, "page"), plural(c.Tickets, "ticket"), used))
	}
	if c, ok := perSLO[""]; ok {
		out = append(out, fmt.Sprintf("%s: %s, %s about no one SLO (traffic, GPU and serving alerts)", svc.Name, plural(c.Pages, "page"), plural(c.Tickets, "ticket")))
	}
	return out
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// Document is the JSON form of one or more services' results.
type Document struct {
	Prometheus string        `json:"prometheus"`
	From       time.Time     `json:"from"`
	To         time.Time     `json:"to"`
	Alerts     []jsonAlert   `json:"alerts"`
	SLOs       []jsonVerdict `json:"slos"`
}

type jsonAlert struct {
	Alert      string            `json:"alert"`
	Labels     map[string]string `json:"labels"`
	FiringAt   time.Time         `json:"firing_at"`
	ResolvedAt *time.Time        `json:"resolved_at"`
}

type jsonVerdict struct {
	Service    string         `json:"service"`
	SLO        string         `json:"slo"`
	Pages      int            `json:"pages"`
	Tickets    int            `json:"tickets"`
	ByTier     map[string]int `json:"by_tier"`
	BudgetUsed *float64       `json:"budget_used"`
}

// WriteJSON writes the results as one document, times in RFC 3339.
func WriteJSON(w io.Writer, prometheus string, svcs []slomodel.Service, results []Result) error {
	doc := Document{Prometheus: prometheus, Alerts: []jsonAlert{}, SLOs: []jsonVerdict{}}
	for i, r := range results {
		doc.From, doc.To = r.From.UTC(), r.To.UTC()
		for _, s := range r.Spans {
			a := jsonAlert{Alert: s.Alert(), Labels: s.Labels.Map(), FiringAt: s.FiringAt.UTC()}
			delete(a.Labels, labels.AlertName)
			if !s.ResolvedAt.IsZero() {
				t := s.ResolvedAt.UTC()
				a.ResolvedAt = &t
			}
			doc.Alerts = append(doc.Alerts, a)
		}
		perSLO, perTier := Counts(svcs[i], r)
		for _, slo := range svcs[i].SLOs {
			v := jsonVerdict{Service: r.Service, SLO: slo.Name, Pages: perSLO[slo.Name].Pages, Tickets: perSLO[slo.Name].Tickets, ByTier: perTier[slo.Name]}
			if v.ByTier == nil {
				v.ByTier = map[string]int{}
			}
			if u, ok := r.BudgetUsed[slo.Name]; ok {
				v.BudgetUsed = &u
			}
			doc.SLOs = append(doc.SLOs, v)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
