package dashboard

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
	"github.com/slogen-dev/slogen/internal/plan"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// maxPanels is the limit, rows included: a dashboard read in an
// incident, not every metric there is.
const maxPanels = 20

func build(t *testing.T, name string) (dashboard.Dashboard, []byte) {
	t.Helper()
	d, err := Build(plan.New(service(t, name)))
	if err != nil {
		t.Fatal(err)
	}
	js, err := grafana.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return d, js
}

// golden compares got with testdata/<test name>.golden, or rewrites it
// with -update.
func golden(t *testing.T, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", filepath.FromSlash(t.Name())+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the generated dashboard; review the diff and run go test -update", path)
	}
}

func TestGolden(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		t.Run(svc.Name, func(t *testing.T) {
			_, js := build(t, svc.Name)
			golden(t, js)
		})
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	_, first := build(t, "chat-llama")
	for range 5 {
		if _, again := build(t, "chat-llama"); !bytes.Equal(first, again) {
			t.Fatal("two builds of the same service differ")
		}
	}
}

// everything is a custom app with every metric slogen can draw and a
// goodput SLO: the most panels a dashboard can have.
const everything = `package slo
services: "everything": {
	runtime: "custom"
	selector: {job: "everything"}
	metrics: {
		requests: "app_requests_total", errors: "app_errors_total", latency: "app_latency_seconds", ttft: "app_ttft_seconds",
		tpot: "app_tpot_seconds", itl: "app_itl_seconds", queue: "app_queue_seconds", running: "app_running", waiting: "app_waiting",
		kv_cache: "app_kv", oom: "app_oom_total", preemptions: "app_preemptions_total",
		prefix_cache_hits: "app_prefix_hits_total", prefix_cache_queries: "app_prefix_queries_total",
		gpu_memory: "app_mem_bytes", gpu_memory_reserved: "app_memres_bytes", prompt_tokens: "app_prompt_tokens_total",
		generation_tokens: "app_generation_tokens_total"
	}
	slos: {
		availability: {objective: 99.5}
		queue: {objective: 99, threshold: "1s"}
		goodput: {objective: 99, bounds: {ttft: "1s", tpot: "50ms"}}
	}
}
`

func TestPanelCountStaysUnderTheLimit(t *testing.T) {
	worst := filepath.Join(t.TempDir(), "everything.cue")
	if err := os.WriteFile(worst, []byte(everything), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, svc := range append(services(t, specFiles(t)...), services(t, worst)...) {
		d, err := Build(plan.New(svc))
		if err != nil {
			t.Fatal(err)
		}
		rows := len(d.Panels) - len(grafanatest.Panels(d))
		t.Logf("%s: %d SLOs, %d panels (%d of them rows)", svc.Name, len(svc.SLOs), len(d.Panels), rows)
		if len(d.Panels) > maxPanels {
			t.Errorf("%s has %d panels, rows included; the limit is %d", svc.Name, len(d.Panels), maxPanels)
		}
	}
}

func TestSchemaVersion(t *testing.T) {
	if v := dashboard.NewDashboard().SchemaVersion; v != 42 {
		t.Errorf("the SDK now writes schemaVersion %d, not 42: check SchemaVersion's reasoning and docs/dashboard.md", v)
	}
	if d, _ := build(t, "chat-llama"); d.SchemaVersion != SchemaVersion {
		t.Errorf("schemaVersion %d, want %d", d.SchemaVersion, SchemaVersion)
	}
}

// TestJSONRoundTrips checks the output against the SDK's schema twice:
// its strict decoder rejects unknown fields, wrong types and missing
// required ones, and its plain decoder must lose nothing. (Override
// values are untyped in the SDK and come back as maps, their keys
// sorted, so the comparison is of values, not bytes.)
func TestJSONRoundTrips(t *testing.T) {
	plugins.RegisterDefaultPlugins()
	_, js := build(t, "chat-llama")
	if validateStrict([]byte(strings.Replace(string(js), `"type": "stat",`, `"type": "stat", "bogus": 1,`, 1))) == nil {
		t.Fatal("the strict decoder accepted an unknown panel field; it checks nothing")
	}
	for _, svc := range services(t, specFiles(t)...) {
		_, js := build(t, svc.Name)
		if err := validateStrict(js); err != nil {
			t.Fatalf("%s: %v", svc.Name, err)
		}
		var back dashboard.Dashboard
		if err := json.Unmarshal(js, &back); err != nil {
			t.Fatalf("%s: %v", svc.Name, err)
		}
		again, err := grafana.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(jsonValue(t, js), jsonValue(t, again)) {
			t.Errorf("%s: decoding and encoding again changed the JSON", svc.Name)
		}
	}
}

func jsonValue(t *testing.T, js []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// validateStrict runs the SDK's strict decoder. In v0.0.22 it reports
// success as an empty cog.BuildErrors, a non-nil error, and on that
// success drops the panels, so it serves to find errors only.
func validateStrict(js []byte) error {
	var d dashboard.Dashboard
	err := d.UnmarshalJSONStrict(js)
	if be, ok := errors.AsType[cog.BuildErrors](err); ok && len(be) == 0 {
		return nil
	}
	return err
}

func TestDescriptionSaysGenerated(t *testing.T) {
	d, _ := build(t, "chat-llama")
	if !strings.HasSuffix(grafanatest.Deref(d.Description), "Code generated by slogen. DO NOT EDIT.") {
		t.Errorf("description %q does not end with the generated-code notice", grafanatest.Deref(d.Description))
	}
}
