package overview

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/cog/plugins"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden keeps the example fleet's overview in testdata for review;
// the other tests prove what it does.
func TestGolden(t *testing.T) {
	js, err := grafana.Marshal(build(t, exampleFleet(t)))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(js, want) {
		t.Errorf("%s differs from the generated overview; review the diff and run go test -update", path)
	}
}

// TestQueriesParseUnderPrometheus242 parses every query and variable
// selector with the filters on All, as Prometheus 2.42 would.
func TestQueriesParseUnderPrometheus242(t *testing.T) {
	d := build(t, exampleFleet(t))
	all := grafanatest.AllPicked(d)
	p := promcompat.Parser()
	for _, q := range grafanatest.Queries(d) {
		if _, err := p.ParseExpr(grafanatest.Expand(q.Expr, all)); err != nil {
			t.Errorf("panel %q query %s: %v", q.Panel, q.RefID, err)
		}
	}
	for _, v := range d.Templating.List {
		if v.Query == nil || v.Query.String == nil {
			continue
		}
		inner, ok := strings.CutPrefix(*v.Query.String, "label_values(")
		if !ok {
			continue
		}
		sel := inner[:strings.LastIndex(inner, ",")]
		if _, err := p.ParseExpr(grafanatest.Expand(sel, all)); err != nil {
			t.Errorf("variable %s: %v", v.Name, err)
		}
	}
}

// TestJSONRoundTrips checks the output against the SDK's schema: its
// strict decoder rejects unknown fields and wrong types, and decoding
// and encoding again loses nothing.
func TestJSONRoundTrips(t *testing.T) {
	plugins.RegisterDefaultPlugins()
	js, err := grafana.Marshal(build(t, exampleFleet(t)))
	if err != nil {
		t.Fatal(err)
	}
	var strict dashboard.Dashboard
	if err := strict.UnmarshalJSONStrict(js); err != nil {
		if be, ok := errors.AsType[cog.BuildErrors](err); !ok || len(be) > 0 {
			t.Fatal(err)
		}
	}
	var back dashboard.Dashboard
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	again, err := grafana.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if json.Unmarshal(js, &a) != nil || json.Unmarshal(again, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Error("decoding and encoding again changed the JSON")
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	svcs := exampleFleet(t)
	first, _ := grafana.Marshal(build(t, svcs))
	for range 3 {
		if again, _ := grafana.Marshal(build(t, svcs)); !bytes.Equal(first, again) {
			t.Fatal("two builds of the same fleet differ")
		}
	}
}
