package overview

import (
	"cmp"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog/variants"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

// load reads services as slogen build does.
func load(t *testing.T, name, cue string) []model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: name, Data: []byte(cue)})
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return res.Spec.Services
}

// exampleFleet is the services of examples/fleet.
func exampleFleet(t *testing.T) []model.Service {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "fleet", "*.cue"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples/fleet specs (%v)", err)
	}
	res, err := spec.Load(files...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

func build(t *testing.T, svcs []model.Service) dashboard.Dashboard {
	t.Helper()
	d, err := Build(svcs)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// panelQuery is one query of a panel, its variables not yet replaced.
type panelQuery struct {
	panel string
	refID string
	expr  string
}

// queries lists every panel query of a dashboard, in panel order.
func queries(d dashboard.Dashboard) []panelQuery {
	var qs []panelQuery
	for _, p := range panels(d) {
		for _, t := range p.Targets {
			if q, ok := promQuery(t); ok {
				qs = append(qs, panelQuery{deref(p.Title), deref(q.RefId), q.Expr})
			}
		}
	}
	return qs
}

// panelQueries are the queries of the panel titled title.
func panelQueries(t *testing.T, d dashboard.Dashboard, title string) []panelQuery {
	t.Helper()
	var qs []panelQuery
	for _, q := range queries(d) {
		if q.panel == title {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		t.Fatalf("no panel %q", title)
	}
	return qs
}

// promQuery reads a Prometheus target: the builders make values, the
// JSON decoder pointers.
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
		if p.Panel != nil {
			ps = append(ps, *p.Panel)
		}
	}
	return ps
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// allPicked are the values Grafana gives the variables with every filter
// on All.
func allPicked(d dashboard.Dashboard) map[string]string {
	vals := map[string]string{}
	for _, v := range d.Templating.List {
		if v.AllValue != nil {
			vals[v.Name] = *v.AllValue
		}
	}
	return vals
}

// expand replaces $name and ${name} with values[name], longer names
// first, so that $team never eats the start of $teams.
func expand(expr string, values map[string]string) string {
	names := slices.SortedFunc(maps.Keys(values), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a, b))
	})
	for _, n := range names {
		expr = strings.ReplaceAll(expr, "${"+n+"}", values[n])
		expr = strings.ReplaceAll(expr, "$"+n, values[n])
	}
	return expr
}
