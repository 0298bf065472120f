package dashboard

import (
	"bytes"
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/testenv"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// TestDiagnosisNowShowsEachVerdict runs the Diagnosis now panel's query
// over the GPU rules' own day-and-a-half diagnosis scenario, as slogen
// wrote it into the example's gpu-diagnosis_test.yaml (TestExamplesAreFresh
// keeps it what gputests generates; reading the file keeps this output
// from importing another): yesterday's slowdown again, then saturation, input
// errors and a VRAM step, one at a time. At every time the scenario
// checks all three diagnosis alerts, the panel must show the verdict of
// the one expected firing, or healthy when none is; an hour in, with no
// day-old data, no baseline yet. Prometheus 2.42's promtool evaluates the
// rules and the query, and the in-process engine too.
func TestDiagnosisNowShowsEachVerdict(t *testing.T) {
	promtool := testenv.Tool(t, "promtool")
	for _, name := range []string{"chat-llama"} {
		t.Run(name, func(t *testing.T) {
			file, shown := verdictTest(t, name)
			d, _ := build(t, name)
			for _, v := range append(slices.Clone(diagnoses), healthy, noBaseline) {
				if !slices.Contains(shown, v) {
					t.Errorf("the scenario never checks the verdict %q", v.text)
				}
				if got := shownAs(t, d, v.value); grafanatest.Deref(got.Text) != v.text || grafanatest.Deref(got.Color) != v.color {
					t.Errorf("the panel shows %d as %q in %q, want %q in %q", v.value, grafanatest.Deref(got.Text), grafanatest.Deref(got.Color), v.text, v.color)
				}
			}
			if out, err := exec.Command(promtool, "test", "rules", file).CombinedOutput(); err != nil {
				if _, exit := errors.AsType[*exec.ExitError](err); !exit {
					t.Fatal(err)
				}
				t.Errorf("promtool:\n%s", out)
			}
			var out bytes.Buffer
			if failed, err := promtest.Run(context.Background(), &out, file); failed > 0 || err != nil {
				t.Errorf("in process (%v):\n%s", err, out.String())
			}
		})
	}
}

// shownAs is what the Diagnosis now panel shows for a value.
func shownAs(t *testing.T, d dashboard.Dashboard, value int) dashboard.ValueMappingResult {
	t.Helper()
	for _, p := range grafanatest.Panels(d) {
		if grafanatest.Deref(p.Title) == "Diagnosis now" && p.FieldConfig != nil && len(p.FieldConfig.Defaults.Mappings) == 1 {
			return p.FieldConfig.Defaults.Mappings[0].ValueMap.Options[strconv.Itoa(value)]
		}
	}
	t.Fatal("no Diagnosis now panel with one value map")
	return dashboard.ValueMappingResult{}
}

// verdictTest writes the service's GPU rules and a promtool test of the
// Diagnosis now query over the diagnosis scenario, and returns the test
// file and the verdicts it checks.
func verdictTest(t *testing.T, name string) (string, []verdict) {
	t.Helper()
	generated, at := generatedDiagnosis(t, name)
	scenario := diagnosisScenario(t, generated.Tests)
	d, _ := build(t, name)
	expr := panelQuery(t, grafanatest.Queries(d), "Diagnosis now")

	test := testfile.Test{Name: "Diagnosis now over: " + scenario.Name, Interval: scenario.Interval, InputSeries: scenario.InputSeries}
	checks := expectedVerdicts(scenario.AlertTests)
	var shown []verdict
	for _, at := range slices.Sorted(maps.Keys(checks)) {
		v := checks[at]
		test.ExprTests = append(test.ExprTests, testfile.ExprTest{Expr: expr, EvalTime: at, ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: int64(v.value)}}})
		shown = append(shown, v)
	}

	// The example's own rule files, as its generated test loads them: the
	// GPU rules read the SLO rules' objective, and a fleet's serving
	// alerts are shared.
	var ruleFiles []string
	for _, f := range generated.RuleFiles {
		abs, err := filepath.Abs(filepath.Join(at, f))
		if err != nil {
			t.Fatal(err)
		}
		ruleFiles = append(ruleFiles, abs)
	}
	b, err := testfile.Marshal(testfile.File{
		RuleFiles:          ruleFiles,
		EvaluationInterval: generated.EvaluationInterval,
		GroupEvalOrder:     generated.GroupEvalOrder,
		Tests:              []testfile.Test{test},
	})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "diagnosis-now_test.yaml")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return file, shown
}

// generatedDiagnosis reads the diagnosis tests slogen generated for an
// example service, and the directory they are in.
func generatedDiagnosis(t *testing.T, name string) (testfile.File, string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "generated", name, "gpu-diagnosis_test.yaml"))
	if err != nil || len(paths) != 1 {
		t.Fatalf("the diagnosis tests generated for %s: %v %v", name, paths, err)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	var f testfile.File
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", paths[0], err)
	}
	return f, filepath.Dir(paths[0])
}

// diagnosisScenario is the generated test that checks the diagnosis
// alerts.
func diagnosisScenario(t *testing.T, tests []testfile.Test) testfile.Test {
	t.Helper()
	for _, test := range tests {
		if slices.ContainsFunc(test.AlertTests, func(at testfile.AlertTest) bool { return at.Alertname == gpualerts.Saturated }) {
			return test
		}
	}
	t.Fatal("no generated test checks the diagnosis alerts")
	return testfile.Test{}
}

// expectedVerdicts are, by evaluation time, the verdict the scenario's
// checks of the three diagnosis alerts imply: at the times all three are
// checked, the one expected firing, or healthy. An hour in, before a day
// of data, there is no baseline.
func expectedVerdicts(checks []testfile.AlertTest) map[string]verdict {
	checked := map[string][]testfile.AlertTest{}
	for _, at := range checks {
		if slices.ContainsFunc(diagnoses, func(v verdict) bool { return v.alert == at.Alertname }) {
			checked[at.EvalTime] = append(checked[at.EvalTime], at)
		}
	}
	out := map[string]verdict{"1h": noBaseline}
	for at, cs := range checked {
		if len(cs) != len(diagnoses) {
			continue
		}
		out[at] = healthy
		for _, c := range cs {
			if len(c.ExpAlerts) > 0 {
				out[at] = diagnoses[slices.IndexFunc(diagnoses, func(v verdict) bool { return v.alert == c.Alertname })]
			}
		}
	}
	return out
}

func panelQuery(t *testing.T, qs []grafanatest.Query, panel string) string {
	t.Helper()
	for _, q := range qs {
		if q.Panel == panel {
			return q.Expr
		}
	}
	t.Fatalf("no panel %q", panel)
	return ""
}
