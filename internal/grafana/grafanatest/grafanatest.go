// Package grafanatest reads the dashboards slogen builds the way the
// tests of both dashboard outputs need: every panel query, and queries
// with Grafana's variables written in. Tests import it; the binary does
// not.
package grafanatest

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
)

// Query is one panel query, its variables not yet replaced.
type Query struct {
	Panel  string // the panel's title
	RefID  string
	Expr   string
	Legend string
}

// Queries lists every panel query of a dashboard, in panel order.
func Queries(d dashboard.Dashboard) []Query {
	var qs []Query
	for _, p := range Panels(d) {
		for _, t := range p.Targets {
			if pq, ok := PromQuery(t); ok {
				qs = append(qs, Query{Panel: Deref(p.Title), RefID: Deref(pq.RefId), Expr: pq.Expr, Legend: Deref(pq.LegendFormat)})
			}
		}
	}
	return qs
}

// PromQuery reads a Prometheus target: the SDK's builders make values,
// its JSON decoder pointers.
func PromQuery(t variants.Dataquery) (prometheus.Dataquery, bool) {
	switch q := t.(type) {
	case prometheus.Dataquery:
		return q, true
	case *prometheus.Dataquery:
		return *q, true
	}
	return prometheus.Dataquery{}, false
}

// Panels lists the dashboard's panels, those inside rows too, rows left
// out.
func Panels(d dashboard.Dashboard) []dashboard.Panel {
	var ps []dashboard.Panel
	for _, p := range d.Panels {
		switch {
		case p.Panel != nil:
			ps = append(ps, *p.Panel)
		case p.RowPanel != nil:
			ps = append(ps, p.RowPanel.Panels...)
		}
	}
	return ps
}

// AllPicked are the values Grafana gives the variables when every filter
// is on All.
func AllPicked(d dashboard.Dashboard) map[string]string {
	vals := map[string]string{}
	for _, v := range d.Templating.List {
		if v.AllValue != nil {
			vals[v.Name] = *v.AllValue
		}
	}
	return vals
}

// Expand replaces $name, ${name} and ${name:raw} with values[name]: the
// values are given as Grafana writes each variable in. Longer names go
// first, so that $pod never eats the start of $pods.
func Expand(expr string, values map[string]string) string {
	names := slices.SortedFunc(maps.Keys(values), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	for _, n := range names {
		expr = strings.ReplaceAll(expr, "${"+n+"}", values[n])
		expr = strings.ReplaceAll(expr, "${"+n+":raw}", values[n])
		expr = strings.ReplaceAll(expr, "$"+n, values[n])
	}
	return expr
}

// Deref is a title's or a reference's text, "" when unset.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
