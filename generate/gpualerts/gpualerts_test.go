package gpualerts

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/testenv"
	"github.com/slogen-dev/slogen/model"
	"github.com/slogen-dev/slogen/promcompat"
	"github.com/slogen-dev/slogen/ruletest"
	"github.com/slogen-dev/slogen/spec"
)

// fixture loads the one service of testdata/<name>.cue.
func fixture(t *testing.T, name string) model.Service {
	t.Helper()
	res, err := spec.Load(filepath.Join("testdata", name+".cue"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Spec.Services[0]
}

var fixtures = []string{"vllm", "triton", "custom", "tgi", "sglang"}

// engineFixtures are the fixtures whose generated tests run below: the
// ones unlike any example (host mapping and static targets; an OOM
// selector, honor_labels and a pod pattern with alternatives). The
// examples' own tests, which include every runtime's GPU tests, run in
// ./examples.
var engineFixtures = []string{"triton", "custom"}

func TestRulesAreValidForPrometheus242(t *testing.T) {
	for _, name := range fixtures {
		f, err := rules.Marshal(rules.File{Groups: Build(fixture(t, name))})
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range promcompat.CheckRules(name, f) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestEveryAlertCarriesServiceSeverityAndRunbook(t *testing.T) {
	for _, name := range fixtures {
		svc := fixture(t, name)
		for _, r := range Build(svc)[0].Rules {
			if r.Alert == "" {
				continue
			}
			if r.Labels["service"] != svc.Name || r.Labels["severity"] == "" || r.Annotations["runbook_url"] == "" {
				t.Errorf("%s: %s has labels %v and annotations %v", name, r.Alert, r.Labels, r.Annotations)
			}
			if svc.Alerting.RunbookURL == "" && r.Annotations["runbook_url"] != rules.RunbookBase+strings.ToLower(r.Alert) {
				t.Errorf("%s: %s links %s", name, r.Alert, r.Annotations["runbook_url"])
			}
		}
	}
}

// TestEveryAlertIsTestedFiringAndQuiet: each alert a service has gets a
// test where it must fire and one where it must not.
func TestEveryAlertIsTestedFiringAndQuiet(t *testing.T) {
	for _, name := range fixtures {
		svc := fixture(t, name)
		tests, skips := Tests(svc)
		if len(skips) > 0 {
			t.Errorf("%s: skipped %v", name, skips)
		}
		fired, quieted := map[string]bool{}, map[string]bool{}
		for _, tc := range tests {
			for _, at := range tc.AlertTests {
				if len(at.ExpAlerts) > 0 {
					fired[at.Alertname] = true
				} else {
					quieted[at.Alertname] = true
				}
			}
		}
		defs, _ := definitions(svc)
		for _, d := range defs {
			if !fired[d.name] || !quieted[d.name] {
				t.Errorf("%s: %s fires in a test: %v, stays quiet in one: %v", name, d.name, fired[d.name], quieted[d.name])
			}
		}
	}
}

func TestSkippedAlertsSayWhy(t *testing.T) {
	skipped := func(svc model.Service) map[string]string {
		out := map[string]string{}
		for _, s := range Skipped(svc) {
			out[s.Alert] = s.Reason
		}
		return out
	}
	vllm, triton, custom := skipped(fixture(t, "vllm")), skipped(fixture(t, "triton")), skipped(fixture(t, "custom"))
	if !strings.Contains(vllm[OOMEvents], "DCGM exports no OOM metric") {
		t.Errorf("vllm OOM skip: %q", vllm[OOMEvents])
	}
	if triton[KVCacheHigh] == "" {
		t.Error("triton exports no KV cache, yet KVCacheHigh is not skipped")
	}
	if len(custom) != 1 || custom[KVCacheHigh] == "" {
		t.Errorf("custom skips %v; want only KVCacheHigh", custom)
	}
}

// TestGeneratedTestsPassInProcess runs each fixture's generated tests
// against its generated rules with Prometheus 3's engine.
func TestGeneratedTestsPassInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a day and a half of rule evaluations per fixture")
	}
	for _, name := range engineFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			if failed, err := ruletest.Run(context.Background(), &out, writeTests(t, fixture(t, name))); failed > 0 || err != nil {
				t.Errorf("%d failed, %v\n%s", failed, err, out.String())
			}
		})
	}
}

// TestGeneratedTestsPassPromtool runs them with promtool, 2.42 in CI.
func TestGeneratedTestsPassPromtool(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a day and a half of rule evaluations per fixture")
	}
	promtool := testenv.Tool(t, "promtool")
	for _, name := range engineFixtures {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := writeTests(t, fixture(t, name))
			cmd := exec.Command(promtool, "test", "rules", filepath.Base(file))
			cmd.Dir = filepath.Dir(file)
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
	svc := fixture(t, "vllm")
	groups := Build(svc)
	for i, r := range groups[0].Rules {
		if r.Alert != "" {
			groups[0].Rules[i].Expr = "vector(1) < 0"
		}
	}
	all, _ := Tests(svc)
	var tests []ruletests.Test
	want := 0
	for _, tc := range all {
		if tc.Interval != "1m" {
			continue
		}
		tests = append(tests, tc)
		for _, at := range tc.AlertTests {
			if len(at.ExpAlerts) > 0 {
				want++
			}
		}
	}
	var out strings.Builder
	failed, err := ruletest.Run(context.Background(), &out, writeFiles(t, groups, tests))
	if err != nil || failed != want || want == 0 {
		t.Fatalf("%d checks failed (%v); want the %d that expect a firing alert\n%s", failed, err, want, out.String())
	}
}

func writeTests(t *testing.T, svc model.Service) string {
	t.Helper()
	tests, _ := Tests(svc)
	return writeFiles(t, Build(svc), tests)
}

func writeFiles(t *testing.T, groups []rules.Group, tests []ruletests.Test) string {
	t.Helper()
	dir := t.TempDir()
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	tf, err := ruletests.Marshal(ruletests.File{RuleFiles: []string{"rules.yaml"}, EvaluationInterval: "1m", Tests: tests})
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"rules.yaml": rf, "rules_test.yaml": tf} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "rules_test.yaml")
}
