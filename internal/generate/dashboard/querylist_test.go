// Listing and checking a dashboard's queries, for the tests.

package dashboard

import (
	"errors"
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

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
	vals := grafanatest.AllPicked(d)
	vals[strings.TrimPrefix(rateWindow, "$")] = rateInterval
	return vals
}

// checkQueries parses every query and variable selector, with every
// filter on All, as Prometheus 2.42 would. The build does not: the
// queries carry Grafana's variables, so they are not PromQL until Grafana
// expands them, and these tests prove every runtime's dashboard instead.
func checkQueries(d dashboard.Dashboard) error {
	vals := AllSelected(d, "1m")
	p := promcompat.Parser()
	var errs []error
	for _, q := range grafanatest.Queries(d) {
		if _, err := p.ParseExpr(grafanatest.Expand(q.Expr, vals)); err != nil {
			errs = append(errs, fmt.Errorf("panel %q query %s: %w", q.Panel, q.RefID, err))
		}
	}
	for _, v := range VariableQueries(d) {
		if _, err := p.ParseExpr(grafanatest.Expand(v.Selector, vals)); err != nil {
			errs = append(errs, fmt.Errorf("variable %s: %w", v.Name, err))
		}
	}
	return errors.Join(errs...)
}
