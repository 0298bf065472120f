package generate

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// A fleet's services share their burn-rate alerts by objective: the gold
// services' page reads every service's recordings but fires only for the
// services its InfoMetric names, with each one's team and the labels and
// annotations the service's own page would have, built alone. At a 2 %
// error ratio the gold services (99.9 %) page and the silver one (99.5 %,
// page at 7.2 %) does not, though the gold page's threshold is far below.
func TestSharedAlertsFireForTheirServicesOnly(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(tieredFleet("gold", "silver"))})
	if err != nil {
		t.Fatal(err)
	}
	dir := buildFleet(t, tieredFleet("gold", "silver"))
	var inputs []testfile.Series
	var want []testfile.ExpAlert
	ids := map[string]bool{}
	for _, svc := range res.Spec.Services {
		p := plan.NewIn(svc, plan.Fleet)
		ids[p.Shared.ID] = true
		inputs = append(inputs, testfile.Series{
			Series: fmt.Sprintf(`%s{service=%q,team=%q,%s=%q}`, rules.InfoMetric, svc.Name, svc.Team, rules.SharedLabel, p.Shared.ID),
			Values: "1x10",
		})
		for _, w := range rules.Windows() {
			sel := fmt.Sprintf(`{service=%q,slo="availability"}`, svc.Name)
			inputs = append(inputs,
				testfile.Series{Series: rules.Requests(w) + sel, Values: "10x10"},
				testfile.Series{Series: rules.Errors(w) + sel, Values: "0.2x10"})
		}
		if page, ok := ownPage(svc); ok && svc.Name != "search" {
			want = append(want, page)
		}
	}
	if len(ids) != 2 {
		t.Fatalf("the gold and silver services share %d sets of alerts, want 2", len(ids))
	}
	f := testfile.File{RuleFiles: []string{SLOAlertsFile}, EvaluationInterval: "1m", Tests: []testfile.Test{{
		Name: "a 2% error ratio pages the gold services only", Interval: "1m", InputSeries: inputs,
		AlertTests: []testfile.AlertTest{{EvalTime: "5m", Alertname: rules.BurnAlert, ExpAlerts: want}},
	}}}
	runTestFile(t, filepath.Join(dir, "shared_test.yaml"), f)
}

// ownPage is the availability page the service gets built alone: the
// alert its shared one must equal once it fires.
func ownPage(svc model.Service) (testfile.ExpAlert, bool) {
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if r.Alert == rules.BurnAlert && r.Labels["slo"] == "availability" && r.Labels["tier"] == "page" {
				return testfile.ExpAlert{ExpLabels: r.Labels, ExpAnnotations: r.Annotations}, true
			}
		}
	}
	return testfile.ExpAlert{}, false
}

// The shared alerts are the services' only copy: no service's rule file
// holds a burn-rate or error-budget alert, prometheus.yml loads the root
// file, and a template's tests read it.
func TestSharedAlertsAreWrittenOnce(t *testing.T) {
	_, files := buildSource(t, tieredFleet("gold", "silver"), Options{})
	for p, data := range files {
		if strings.HasSuffix(p, "/"+RulesFile) {
			for _, a := range []string{rules.BurnAlert, rules.BudgetGoneAlert, rules.BudgetLowAlert} {
				if bytes.Contains(data, []byte("alert: "+a+"\n")) {
					t.Errorf("%s holds %s", p, a)
				}
			}
		}
	}
	if got := strings.Count(string(files[SLOAlertsFile]), "alert: "+rules.BurnAlert+"\n"); got != 2*2*len(model.BurnRules) {
		t.Errorf("%s holds %d burn-rate alerts, want 2 sets of 2 SLOs' %d", SLOAlertsFile, got, len(model.BurnRules))
	}
	if !strings.Contains(string(files["prometheus.yml"]), "\n  - "+SLOAlertsFile+"\n") {
		t.Errorf("prometheus.yml does not load %s", SLOAlertsFile)
	}
	if !strings.Contains(string(files["chat-llama/"+RuleTestsFile]), "../"+SLOAlertsFile) {
		t.Errorf("the gold template's tests do not read %s", SLOAlertsFile)
	}
}

// A fleet's services share their serving alerts that read only
// recordings, whatever their tier: InferenceInputErrors reads each
// service's objective, recorded per service. At an error ratio of 0.3 %,
// three times yesterday's, it fires for the gold services (budget 0.1 %)
// with the labels and annotations each one's own alert has, not for the
// silver one (budget 0.5 %), nor for a service whose InfoMetric names no
// serving alerts, though its errors are the gold ones'.
func TestSharedServingAlertsFireForTheirServicesOnly(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(tieredFleet("gold", "silver"))})
	if err != nil {
		t.Fatal(err)
	}
	dir := buildFleet(t, tieredFleet("gold", "silver"))
	series := func(metric, service string, value string) testfile.Series {
		return testfile.Series{Series: fmt.Sprintf(`%s{service=%q}`, metric, service), Values: value + "x20"}
	}
	diagnosis := func(service, objective string) []testfile.Series {
		return []testfile.Series{
			series(gpualerts.ErrorRatio, service, "0.003"), series(gpualerts.ErrorRatio+"_1d_ago", service, "0.001"),
			series(gpualerts.LatencyMean, service, "1"), series(gpualerts.LatencyMean+"_1d_ago", service, "1"),
			{Series: fmt.Sprintf(`%s{service=%q,slo="availability"}`, rules.ObjectiveMetric, service), Values: objective + "x20"},
		}
	}
	inputs := append(diagnosis("other", "0.999"), testfile.Series{Series: rules.InfoMetric + `{service="other",team="chat"}`, Values: "1x20"})
	var want []testfile.ExpAlert
	ids := map[string]bool{}
	for _, svc := range res.Spec.Services {
		p := plan.NewIn(svc, plan.Fleet)
		ids[p.Serving.ID] = true
		inputs = append(inputs, testfile.Series{
			Series: fmt.Sprintf(`%s{service=%q,team=%q,%s=%q}`, rules.InfoMetric, svc.Name, svc.Team, rules.ServingLabel, p.Serving.ID),
			Values: "1x20",
		})
		objective := map[bool]string{true: "0.995", false: "0.999"}[svc.Name == "search"]
		inputs = append(inputs, diagnosis(svc.Name, objective)...)
		if svc.Name != "search" {
			want = append(want, ownServingAlert(t, svc, gpualerts.InputErrors))
		}
	}
	if len(ids) != 1 {
		t.Fatalf("the gold and silver services share %d sets of serving alerts, want 1", len(ids))
	}
	f := testfile.File{RuleFiles: []string{ServingAlertsFile}, EvaluationInterval: "1m", Tests: []testfile.Test{{
		Name: "errors up above the gold budget, below the silver one", Interval: "1m", InputSeries: inputs,
		AlertTests: []testfile.AlertTest{
			{EvalTime: "14m", Alertname: gpualerts.InputErrors},
			{EvalTime: "15m", Alertname: gpualerts.InputErrors, ExpAlerts: want},
		},
	}}}
	runTestFile(t, filepath.Join(dir, "serving_test.yaml"), f)
}

// ownServingAlert is the alert the service of a fleet would hold in its
// own rule file, were it not shared.
func ownServingAlert(t *testing.T, svc model.Service, name string) testfile.ExpAlert {
	t.Helper()
	for _, a := range gpualerts.NewFleetPlan(svc).Alerts {
		if a.Name == name {
			return testfile.ExpAlert{ExpLabels: a.Labels, ExpAnnotations: a.Annotations}
		}
	}
	t.Fatalf("%s has no %s", svc.Name, name)
	return testfile.ExpAlert{}
}

// The shared serving alerts are likewise the only copy: no service's GPU
// rule file holds one, prometheus.yml loads their file, and the GPU
// template's tests read it.
func TestSharedServingAlertsAreWrittenOnce(t *testing.T) {
	_, files := buildSource(t, tieredFleet("gold", "silver"), Options{})
	shared := []string{gpualerts.MemoryHigh, gpualerts.InputErrors, gpualerts.Saturated, gpualerts.MemoryLeakSuspect, gpualerts.PrefixCacheCold}
	for p, data := range files {
		if strings.HasSuffix(p, "/"+GPURulesFile) {
			for _, a := range shared {
				if bytes.Contains(data, []byte("alert: "+a+"\n")) {
					t.Errorf("%s holds %s", p, a)
				}
			}
		}
	}
	for _, a := range shared {
		if got := strings.Count(string(files[ServingAlertsFile]), "alert: "+a+"\n"); got != 1 {
			t.Errorf("%s holds %s %d times, want once", ServingAlertsFile, a, got)
		}
	}
	if !strings.Contains(string(files["prometheus.yml"]), "\n  - "+ServingAlertsFile+"\n") {
		t.Errorf("prometheus.yml does not load %s", ServingAlertsFile)
	}
	for _, f := range []string{GPURuleTestsFile, GPUDiagnosisTestsFile} {
		if !strings.Contains(string(files["chat-llama/"+f]), "../"+ServingAlertsFile) {
			t.Errorf("the GPU template's %s does not read %s", f, ServingAlertsFile)
		}
	}
}

// A service across clusters records its objective on the global ruler,
// not on the Prometheus that evaluates its GPU rules: it keeps its serving
// alerts, the budget as a number, and its GPU tests read its GPU rules
// alone; its neighbour in one cluster shares them.
func TestServiceAcrossClustersKeepsItsServingAlerts(t *testing.T) {
	src := strings.Replace(tieredFleet("gold", "silver"), `runtime: "vllm"`, `runtime: "vllm"
			if name == "search" {global: label: "cluster"}`, 1)
	_, files := buildSource(t, src, Options{})
	own := string(files["search/"+GPURulesFile])
	for _, a := range []string{gpualerts.MemoryHigh, gpualerts.InputErrors, gpualerts.Saturated} {
		if !strings.Contains(own, "alert: "+a+"\n") {
			t.Errorf("search, across clusters, lacks its own %s", a)
		}
	}
	if strings.Contains(own, rules.ObjectiveMetric) || !strings.Contains(own, "slogen:diag_errors:ratio1h{service=\"search\"} > 0.005\n") {
		t.Errorf("search's InferenceInputErrors does not compare with its budget as a number:\n%s", own)
	}
	if test := string(files["search/"+GPURuleTestsFile]); !strings.Contains(test, "rule_files:\n  - "+GPURulesFile+"\nevaluation") {
		t.Errorf("search's GPU tests read more than its GPU rules:\n%.300s", test)
	}
	if strings.Contains(string(files["chat-llama/"+GPURulesFile]), "alert: "+gpualerts.MemoryHigh+"\n") {
		t.Errorf("chat-llama, in one cluster, keeps its own %s", gpualerts.MemoryHigh)
	}
}

// runTestFile writes the promtool test file to path, beside the rule
// files it names, and runs it in process: every test must pass.
func runTestFile(t *testing.T, path string, f testfile.File) {
	t.Helper()
	data, err := testfile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &out, path); failed > 0 || err != nil {
		t.Errorf("%d failed, %v:\n%s", failed, err, out.String())
	}
}
