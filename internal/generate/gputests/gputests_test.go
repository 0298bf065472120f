package gputests

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// fixture plans the one service of gpualerts' testdata/<name>.cue: the
// rules' own tests and these read the same services.
func fixture(t *testing.T, name string) gpualerts.Plan {
	t.Helper()
	res, err := spec.Load(filepath.Join("..", "..", "..", "internal", "plan", "gpualerts", "testdata", name+".cue"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return gpualerts.NewPlan(res.Spec.Services[0])
}

// fixtures are one per runtime of the profile table.
var fixtures = profile.Names()

// engineFixtures are the fixtures whose generated tests also run under
// promtool: those unlike any example (host mapping with static targets,
// an OOM selector, honor_labels and a pod pattern with alternatives).
// Every fixture's run in process. The examples' own tests run in
// ./examples' cross-check, in CI.
var engineFixtures = []string{"triton", "custom"}

// TestEveryAlertIsTestedFiringAndQuiet: each alert a service has gets a
// test where it must fire and one where it must not.
func TestEveryAlertIsTestedFiringAndQuiet(t *testing.T) {
	for _, name := range fixtures {
		plan := fixture(t, name)
		suite := NewCache().Tests(plan)
		if skips := NewCache().Untested(plan); len(skips) > 0 {
			t.Errorf("%s: skipped %v", name, skips)
		}
		fired, quieted := map[string]bool{}, map[string]bool{}
		for _, tc := range append(suite.Tests, suite.Diagnosis...) {
			for _, at := range tc.AlertTests {
				if len(at.ExpAlerts) > 0 {
					fired[at.Alertname] = true
				} else {
					quieted[at.Alertname] = true
				}
			}
		}
		for _, a := range plan.Alerts {
			if !fired[a.Name] || !quieted[a.Name] {
				t.Errorf("%s: %s fires in a test: %v, stays quiet in one: %v", name, a.Name, fired[a.Name], quieted[a.Name])
			}
		}
	}
}

// TestGeneratedTestsPassInProcess runs each fixture's generated tests
// against its generated rules with Prometheus 3's engine.
func TestGeneratedTestsPassInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a day and a half of rule evaluations per fixture")
	}
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			if failed, err := promtest.Run(context.Background(), &out, writeTests(t, fixture(t, name))...); failed > 0 || err != nil {
				t.Errorf("%d failed, %v\n%s", failed, err, out.String())
			}
		})
	}
}

// An app whose errors are its latency histogram's count by code: the
// availability SLO's series of that count are the only ones written, or
// the diagnosis would read three times the traffic.
func TestCountersTheSLOReadsAreWrittenOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a day and a half of rule evaluations")
	}
	res, err := spec.LoadSources(spec.Source{Name: "shared.cue", Data: []byte(`package slo
services: app: {
	runtime: "custom"
	selector: {namespace: "ml", job: "app"}
	metrics: {requests: "lat_seconds_count", errors: "lat_seconds_count{code=\"500\"}", latency: "lat_seconds"}
	slos: availability: objective: 99.5
}`)})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if failed, err := promtest.Run(context.Background(), &out, writeTests(t, gpualerts.NewPlan(res.Spec.Services[0]))...); failed > 0 || err != nil {
		t.Errorf("%d failed, %v\n%s", failed, err, out.String())
	}
}

// TestGeneratedTestsPassPromtool runs them with promtool, 2.42 in CI.
func TestGeneratedTestsPassPromtool(t *testing.T) {
	testenv.CrossCheck(t)
	promtool := testenv.Tool(t, "promtool")
	for _, name := range engineFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := writeTests(t, fixture(t, name))
			cmd := exec.Command(promtool, append([]string{"test", "rules"}, files...)...)
			if b, err := cmd.CombinedOutput(); err != nil {
				if _, exit := errors.AsType[*exec.ExitError](err); !exit {
					t.Fatalf("running promtool: %v", err)
				}
				t.Errorf("promtool:\n%s", b)
			}
		})
	}
}

// TestGeneratedTestsCatchASilencedAlert: with every alert's expression
// replaced by one that never fires, each check that expects a firing
// alert fails. (The day-long diagnosis test is left out for speed.)
func TestGeneratedTestsCatchASilencedAlert(t *testing.T) {
	plan := fixture(t, "vllm")
	groups := ruleGroups(plan)
	gpu := groups[len(groups)-1] // after the SLO rules
	for i, r := range gpu.Rules {
		if r.Alert != "" {
			gpu.Rules[i].Expr = pql.Lt(pql.Call("vector", pql.Num(1)), pql.Num(0))
		}
	}
	all := NewCache().Tests(plan)
	var tests []testfile.Test
	want := 0
	for _, tc := range all.Tests {
		tests = append(tests, tc)
		for _, at := range tc.AlertTests {
			if len(at.ExpAlerts) > 0 {
				want++
			}
		}
	}
	var out strings.Builder
	failed, err := promtest.Run(context.Background(), &out, writeFiles(t, groups, testFile{"rules_test.yaml", EvaluationInterval, tests})...)
	if err != nil || failed != want || want == 0 {
		t.Fatalf("%d checks failed (%v); want the %d that expect a firing alert\n%s", failed, err, want, out.String())
	}
}

// writeTests writes the service's rule file and its two test files, and
// returns the test files' paths.
func writeTests(t *testing.T, plan gpualerts.Plan) []string {
	t.Helper()
	suite := NewCache().Tests(plan)
	return writeFiles(t, ruleGroups(plan),
		testFile{"rules_test.yaml", EvaluationInterval, suite.Tests},
		testFile{"diagnosis_test.yaml", DiagnosisEvaluationInterval, suite.Diagnosis})
}

type testFile struct {
	name  string
	eval  time.Duration
	tests []testfile.Test
}

func writeFiles(t *testing.T, groups []rules.Group, files ...testFile) []string {
	t.Helper()
	dir := t.TempDir()
	write := func(name string, data []byte, err error) {
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	rf, err := rules.Marshal(rules.File{Groups: groups})
	write("rules.yaml", rf, err)
	// promtool runs a file's groups in map order unless told: the GPU
	// rules read the SLO group's objective, which must run first.
	var order []string
	for _, g := range groups {
		order = append(order, g.Name)
	}
	var paths []string
	for _, f := range files {
		if len(f.tests) == 0 {
			continue
		}
		tf, err := testfile.Marshal(testfile.File{RuleFiles: []string{"rules.yaml"}, EvaluationInterval: genfile.Duration(f.eval), GroupEvalOrder: order, Tests: f.tests})
		write(f.name, tf, err)
		paths = append(paths, filepath.Join(dir, f.name))
	}
	return paths
}

// Exporters older than dcgm-exporter PR #309 write XIDs into one series
// without err_code, whose value changes: a change fires GPUXIDErrors,
// which resolves ten minutes on while the value stays.
func TestXIDOfOlderExporters(t *testing.T) {
	plan := fixture(t, "vllm")
	gpu, err := gpuIdentityLabels(plan.Service)
	if err != nil {
		t.Fatal(err)
	}
	series := labels.NewBuilder(labels.FromMap(gpu))
	series.Set(labels.MetricName, xidErrors)
	var alert gpualerts.Alert
	for _, a := range plan.Alerts {
		if a.Name == gpualerts.XIDErrors {
			alert = a
		}
	}
	want := maps.Clone(alert.Labels)
	maps.Copy(want, identity(series.Labels(), alert.Keeps))
	at := func(minute string, firing bool) testfile.AlertTest {
		exp := []testfile.ExpAlert{}
		if firing {
			exp = append(exp, testfile.ExpAlert{ExpLabels: want, ExpAnnotations: expanded(alert.Annotations, want, func() (float64, bool) { return testXID, true })})
		}
		return testfile.AlertTest{EvalTime: minute, Alertname: gpualerts.XIDErrors, ExpAlerts: exp}
	}
	test := testfile.Test{
		Name:        "an older exporter's XID series changes from 0 to 79",
		Interval:    "1m",
		InputSeries: []testfile.Series{{Series: series.Labels().String(), Values: "0x10 79x30"}},
		AlertTests:  []testfile.AlertTest{at("9m", false), at("11m", true), at("19m", true), at("22m", false), at("40m", false)},
	}
	if _, has := want["err_code"]; has {
		t.Fatalf("an older exporter's series has no err_code, yet the alert expects one: %v", want)
	}
	passesBoth(t, writeFiles(t, ruleGroups(plan), testFile{"xid_test.yaml", EvaluationInterval, []testfile.Test{test}}))
}

// vLLM with prefix caching switched off looks nothing up: its hit and
// query counters both stand still. A day with caching on, then the same
// traffic with it off, fires PrefixCacheColdStart once the hour is cold
// and its `for` has passed; 0/0 would have read NaN and never fired.
func TestPrefixCachingSwitchedOff(t *testing.T) {
	plan := fixture(t, "vllm")
	scope := `job="vllm-chat",model_name="meta-llama/Llama-3.1-8B-Instruct",namespace="inference"`
	day := 24 * 12 // five-minute samples
	grow := func(perStep float64, steps int) string {
		return fmt.Sprintf("0+%sx%d", strconv.FormatFloat(perStep, 'f', -1, 64), steps)
	}
	standStill := func(perStep float64) string { // on for a day, then off
		return fmt.Sprintf("0+%sx%d %sx%d", strconv.FormatFloat(perStep, 'f', -1, 64), day, strconv.FormatFloat(perStep*float64(day), 'f', -1, 64), 36)
	}
	test := testfile.Test{
		Name:     "prefix caching switched off after a day",
		Interval: "5m",
		InputSeries: []testfile.Series{
			{Series: `vllm:request_success_total{` + scope + `,finished_reason="stop"}`, Values: grow(500, day+36)},
			{Series: `vllm:prefix_cache_queries_total{` + scope + `}`, Values: standStill(500000)},
			{Series: `vllm:prefix_cache_hits_total{` + scope + `}`, Values: standStill(300000)},
		},
		ExprTests: []testfile.ExprTest{{
			Expr:       pql.Print(pql.Count(pql.Metric("ALERTS", pql.Eq("alertname", gpualerts.PrefixCacheCold), pql.Eq("alertstate", "firing")))),
			EvalTime:   "1d2h30m",
			ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: 1}},
		}},
	}
	passesBoth(t, writeFiles(t, ruleGroups(plan), testFile{"off_test.yaml", DiagnosisEvaluationInterval, []testfile.Test{test}}))
}

// passesBoth runs hand-written test files in process and in promtool.
func passesBoth(t *testing.T, paths []string) {
	t.Helper()
	var out strings.Builder
	if failed, err := promtest.Run(context.Background(), &out, paths...); err != nil || failed > 0 {
		t.Errorf("in process (%d, %v):\n%s", failed, err, out.String())
	}
	if out, err := exec.Command(testenv.Tool(t, "promtool"), append([]string{"test", "rules"}, paths...)...).CombinedOutput(); err != nil {
		t.Errorf("promtool: %v\n%s", err, out)
	}
}

// ruleGroups are the rules a service's generated GPU tests load: its GPU
// and serving rules, after its SLO rules where those record the objective
// the diagnosis reads, so that the diagnosis reads the objective of the
// same evaluation, as the generated tests' group_eval_order has it.
func ruleGroups(plan gpualerts.Plan) []rules.Group {
	if plan.ReadsObjective() {
		return append(rules.Build(plan.Service), gpualerts.Build(plan)...)
	}
	return gpualerts.Build(plan)
}
