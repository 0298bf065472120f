package overview

import (
	"path/filepath"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
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

// panelQueries are the queries of the panel titled title.
func panelQueries(t *testing.T, d dashboard.Dashboard, title string) []grafanatest.Query {
	t.Helper()
	var qs []grafanatest.Query
	for _, q := range grafanatest.Queries(d) {
		if q.Panel == title {
			qs = append(qs, q)
		}
	}
	if len(qs) == 0 {
		t.Fatalf("no panel %q", title)
	}
	return qs
}
