// Listing and checking a dashboard's queries, for the tests.

package dashboard

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"

	"github.com/slogen-dev/slogen/internal/promcompat"
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
	for _, p := range panels(d) {
		for _, t := range p.Targets {
			if pq, ok := promQuery(t); ok {
				qs = append(qs, Query{Panel: deref(p.Title), RefID: deref(pq.RefId), Expr: pq.Expr, Legend: deref(pq.LegendFormat)})
			}
		}
	}
	return qs
}

// promQuery reads a Prometheus target: the SDK's builders make values,
// its JSON decoder pointers.
func promQuery(t variants.Dataquery) (prometheus.Dataquery, bool) {
	switch q := t.(type) {
	case prometheus.Dataquery:
		return q, true
	case *prometheus.Dataquery:
		return *q, true
	}
	return prometheus.Dataquery{}, false
}

// panels lists the dashboard's panels, rows left out.
func panels(d dashboard.Dashboard) []dashboard.Panel {
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

// VariableQuery is a label_values variable: the values of Label on the
// series Selector selects.
type VariableQuery struct {
	Name, Selector, Label string
}

// VariableQueries lists the dashboard's label_values variables.
func VariableQueries(d dashboard.Dashboard) []VariableQuery {
	var vs []VariableQuery
	for _, v := range d.Templating.List {
		if v.Query == nil || v.Query.String == nil {
			continue
		}
		q := *v.Query.String
		inner, ok := strings.CutPrefix(q, "label_values(")
		if !ok {
			continue
		}
		i := strings.LastIndex(inner, ",")
		vs = append(vs, VariableQuery{Name: v.Name, Selector: strings.TrimSpace(inner[:i]), Label: strings.TrimSpace(strings.TrimSuffix(inner[i+1:], ")"))})
	}
	return vs
}

// AllSelected are the values Grafana gives the variables when every
// filter is on All, with rateInterval for $__rate_interval.
func AllSelected(d dashboard.Dashboard, rateInterval string) map[string]string {
	vals := map[string]string{strings.TrimPrefix(rateWindow, "$"): rateInterval}
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

// checkQueries parses every query and variable selector, with every
// filter on All, as Prometheus 2.42 would. The build does not: the
// queries carry Grafana's variables, so they are not PromQL until Grafana
// expands them, and these tests prove every runtime's dashboard instead.
func checkQueries(d dashboard.Dashboard) error {
	vals := AllSelected(d, "1m")
	p := promcompat.Parser()
	var errs []error
	for _, q := range Queries(d) {
		if _, err := p.ParseExpr(Expand(q.Expr, vals)); err != nil {
			errs = append(errs, fmt.Errorf("panel %q query %s: %w", q.Panel, q.RefID, err))
		}
	}
	for _, v := range VariableQueries(d) {
		if _, err := p.ParseExpr(Expand(v.Selector, vals)); err != nil {
			errs = append(errs, fmt.Errorf("variable %s: %w", v.Name, err))
		}
	}
	return errors.Join(errs...)
}
