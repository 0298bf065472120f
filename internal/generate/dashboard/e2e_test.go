package dashboard

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestEndToEnd runs every panel and variable query of every test
// service's dashboard against a real Prometheus 2.42 that scrapes fake
// runtimes and dcgm-exporters and evaluates slogen's rules, and requires
// each to return data: once with every filter on All, once with one pod
// or host and one GPU picked. Scrapes and rule evaluations run every
// second, so seconds of data fill even the 30-day SLO recordings.
func TestEndToEnd(t *testing.T) {
	began := time.Now()
	svcs := withReservedMemory(services(t, specFiles(t)...))
	dir := t.TempDir()
	// Native histograms arrive only in the protobuf format, which 2.42
	// asks for behind this flag (otel-genai's native fake).
	prom := testenv.StartPrometheus(t, dir, promConfig(t, dir, svcs), "--enable-feature=native-histograms")

	for _, svc := range svcs {
		t.Run(svc.Name, func(t *testing.T) {
			d, err := Build(plan.New(svc))
			if err != nil {
				t.Fatal(err)
			}
			all := AllSelected(d, "1m")
			waitForData(t, prom, variableChecks(d, all))
			one := pickOne(t, prom, d, all)
			checks := append(queryChecks(d, all, "all"), queryChecks(d, one, "one")...)
			waitForData(t, prom, checks)
			t.Logf("%d queries returned data; picked %v", len(checks), picks(d, one))
			firstScreenAgreesWithTheAlerts(t, prom, d)
			loggedLinesShowThePodsCounts(t, prom, d, all, svc)
			loggedLinesShowThePodsCounts(t, prom, d, one, svc)
		})
	}
	if t.Failed() {
		t.Logf("prometheus log:\n%s", prom.Log())
	}
	t.Logf("end-to-end run took %s", time.Since(began).Round(time.Millisecond))
}

// firstScreenAgreesWithTheAlerts: the firing alerts panel lists the
// alert slogen's rules fire (every fake GPU reports an XID), and the
// diagnosis, with no day-old data in a Prometheus seconds old, says it
// has no baseline yet rather than healthy.
func firstScreenAgreesWithTheAlerts(t *testing.T, prom *testenv.Prometheus, d dashboard.Dashboard) {
	t.Helper()
	for _, q := range grafanatest.Queries(d) {
		if q.Panel != "Firing alerts" && q.Panel != "Diagnosis now" {
			continue
		}
		res, err := instantQuery(prom, q.Expr)
		if err != nil {
			t.Fatal(err)
		}
		switch q.Panel {
		case "Firing alerts":
			if !slices.ContainsFunc(res, func(s sample) bool { return s.Metric["alertname"] == gpualerts.XIDErrors }) {
				t.Errorf("the firing alerts panel lists %v, not %s", res, gpualerts.XIDErrors)
			}
		case "Diagnosis now":
			if len(res) != 1 || res[0].Value[1] != strconv.Itoa(noBaseline.value) {
				t.Errorf("the diagnosis reads %v without day-old data, want %d (%s)", res, noBaseline.value, noBaseline.text)
			}
		}
	}
}

// withReservedMemory gives the custom app an allocator-reserved gauge,
// which no spec field names yet, so that the fragmentation panel is run
// too.
func withReservedMemory(svcs []model.Service) []model.Service {
	for i := range svcs {
		if svcs[i].Runtime == "custom" {
			svcs[i].Metrics.GPUMemoryReserved = model.Metric("inference_gpu_memory_reserved_bytes")
		}
	}
	return svcs
}

// check is a query that must return data; where label is set, data
// with that label, as Grafana's label_values lists no empty value.
type check struct {
	what, expr, label string
}

// A recording of the same hour a day earlier cannot exist in a Prometheus
// seconds old; its twin over the last hour, which the rules record with
// the same labels, is asked for in its place.
func queryChecks(d dashboard.Dashboard, values map[string]string, label string) []check {
	var cs []check
	for _, q := range grafanatest.Queries(d) {
		expr := strings.ReplaceAll(grafanatest.Expand(q.Expr, values), dayAgoSuffix, "")
		cs = append(cs, check{fmt.Sprintf("%s, panel %q query %s", label, q.Panel, q.RefID), expr, ""})
	}
	return cs
}

const dayAgoSuffix = "_1d_ago"

// variableChecks ask, for each label_values variable, for the label's
// values as Grafana would list them.
func variableChecks(d dashboard.Dashboard, values map[string]string) []check {
	var cs []check
	for _, v := range VariableQueries(d) {
		cs = append(cs, check{"variable " + v.Name, fmt.Sprintf("count by (%s) (%s)", v.Label, grafanatest.Expand(v.Selector, values)), v.Label})
	}
	return cs
}

// pickOne selects the first value of each variable in order, as a user
// would, so that later variables see earlier picks.
func pickOne(t *testing.T, prom *testenv.Prometheus, d dashboard.Dashboard, all map[string]string) map[string]string {
	t.Helper()
	one := map[string]string{}
	for k, v := range all {
		one[k] = v
	}
	for _, v := range VariableQueries(d) {
		res, err := instantQuery(prom, fmt.Sprintf("count by (%s) (%s)", v.Label, grafanatest.Expand(v.Selector, one)))
		// label_values lists no empty value: an SLO that is not split
		// records the same metric without the label.
		i := slices.IndexFunc(res, func(s sample) bool { return s.Metric[v.Label] != "" })
		if err != nil || i < 0 {
			t.Fatalf("variable %s has no values (%v)", v.Name, err)
		}
		one[v.Name] = grafanaEscape(res[i].Metric[v.Label])
	}
	return one
}

func picks(d dashboard.Dashboard, values map[string]string) []string {
	var out []string
	for _, v := range VariableQueries(d) {
		out = append(out, v.Name+"="+values[v.Name])
	}
	return out
}

// grafanaEscape escapes a picked value as Grafana's Prometheus data
// source does for a multi-value variable: regex metacharacters get a
// backslash, itself escaped for the PromQL string.
func grafanaEscape(v string) string {
	return strings.ReplaceAll(regexp.QuoteMeta(v), `\`, `\\`)
}

// waitForData polls until every check returns data. Rates need two
// scrapes and recordings a rule evaluation, so the first rounds miss.
func waitForData(t *testing.T, prom *testenv.Prometheus, checks []check) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var missing []check
		for _, c := range checks {
			res, err := instantQuery(prom, c.expr)
			if err != nil {
				t.Fatalf("%s: %v", c.what, err)
			}
			if !slices.ContainsFunc(res, func(s sample) bool { return c.label == "" || s.Metric[c.label] != "" }) {
				missing = append(missing, c)
			}
		}
		if len(missing) == 0 {
			return
		}
		if time.Now().After(deadline) {
			for _, c := range missing {
				t.Errorf("%s returned no data: %s", c.what, c.expr)
			}
			return
		}
		checks = missing
		time.Sleep(500 * time.Millisecond)
	}
}

// promConfig writes each service's rules, starts its fake exporters and
// returns a Prometheus config scraping them every second.
func promConfig(t *testing.T, dir string, svcs []model.Service) string {
	t.Helper()
	cfg := map[string]any{
		"global": map[string]string{"scrape_interval": "1s", "evaluation_interval": "1s"},
	}
	var ruleFiles []string
	var jobs []map[string]any
	for _, svc := range svcs {
		ruleFiles = append(ruleFiles, writeRules(t, dir, svc)...)
		jobs = append(jobs, runtimeJob(t, svc))
	}
	jobs = append(jobs, dcgmJobs(t, svcs)...)
	cfg["rule_files"] = ruleFiles
	cfg["scrape_configs"] = jobs
	b, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// writeRules writes the service's SLO rule file, with every group
// evaluated at the global interval (the period group's minutes would
// outlast the test), and its GPU and serving rule file, whose alerts the
// first screen reads.
func writeRules(t *testing.T, dir string, svc model.Service) []string {
	t.Helper()
	groups := rules.Build(svc)
	for i := range groups {
		groups[i].Interval = ""
	}
	return []string{
		writeRuleFile(t, filepath.Join(dir, svc.Name+".rules.yaml"), groups),
		writeRuleFile(t, filepath.Join(dir, svc.Name+".gpu-rules.yaml"), gpualerts.Build(gpualerts.NewPlan(svc))),
	}
}

func writeRuleFile(t *testing.T, path string, groups []rules.Group) string {
	t.Helper()
	b, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// serve starts a fake exporter on 127.0.0.1 for the test's lifetime.
func serve(t *testing.T, metrics func(t float64) string) string {
	return serveAs(t, "text/plain; version=0.0.4; charset=utf-8", metrics)
}

// serveAs serves an exposition in the given format.
func serveAs(t *testing.T, contentType string, metrics func(t float64) string) string {
	t.Helper()
	start := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		// Ten minutes' head start: counters are never zero.
		fmt.Fprint(w, metrics(600+time.Since(start).Seconds()))
	}))
	t.Cleanup(srv.Close)
	return strings.TrimPrefix(srv.URL, "http://")
}

// runtimeJob scrapes the service's fake runtime as the spec's selector
// expects: the selector's job, its other labels as target labels, and
// under pod mapping the pod label Kubernetes discovery would set.
func runtimeJob(t *testing.T, svc model.Service) map[string]any {
	t.Helper()
	labels := map[string]string{}
	job := svc.Name
	for _, l := range svc.Selector {
		if l.Name == "job" {
			job = l.Value
			continue
		}
		labels[l.Name] = l.Value
	}
	if svc.DCGM.Mapping != model.MappingHost {
		labels["pod"] = svc.Name + "-0"
	}
	target := serve(t, runtimeFake(t, svc))
	if nativeHistograms(svc) {
		target = serveAs(t, string(nativeFormat), runtimeFake(t, svc))
	}
	return map[string]any{
		"job_name":       job,
		"static_configs": []map[string]any{{"targets": []string{target}, "labels": labels}},
	}
}

func runtimeFake(t *testing.T, svc model.Service) func(float64) string {
	t.Helper()
	served := svc.Model
	if served == "" {
		served = "fleet-model" // a service of many models serves this one
	}
	fake, ok := fakes[svc.Runtime]
	if !ok {
		t.Fatalf("no fake for runtime %s", svc.Runtime)
	}
	return withLogCounts(svc, withSpanMetrics(svc, fake(t, svc, served)))
}
