package dashboard

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestKindDashboardEndToEnd runs a kind dashboard against Prometheus 2.42
// scraping two services of the kind, each with its own pods, model and
// GPUs, and evaluating their fleet rules. With service B picked (its
// hidden variables read from Prometheus as Grafana reads them), every
// query returns data, none of it A's, and the objective and threshold
// lines are B's.
func TestKindDashboardEndToEnd(t *testing.T) {
	a, b := kindServices(t)
	dir := t.TempDir()
	prom := testenv.StartPrometheus(t, dir, fleetPromConfig(t, dir, []model.Service{a, b}))
	d, _ := buildKind(t, a)
	vals := AllSelected(d, "1m")
	vals[serviceVar] = b.Name
	waitForData(t, prom, []check{{what: "B's service_info", expr: rules.InfoMetric + `{service="` + b.Name + `"}`}})
	for _, v := range d.Templating.List {
		q := variableQuery(v)
		if v.Name == serviceVar || !strings.Contains(q, rules.InfoMetric) {
			continue
		}
		vals[v.Name] = pickedValue(t, prom, v, vals)
	}
	var checks []check
	for _, q := range grafanatest.Queries(d) {
		checks = append(checks, check{what: fmt.Sprintf("panel %q query %s", q.Panel, q.RefID), expr: strings.ReplaceAll(grafanatest.Expand(q.Expr, vals), dayAgoSuffix, "")})
	}
	waitForData(t, prom, checks)
	for _, c := range checks {
		res, err := instantQuery(prom, c.expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res {
			if what := onlyOf(s.Metric, a, b); what != "" {
				t.Errorf("%s shows %s's series (%s): %v", c.what, a.Name, what, s.Metric)
			}
		}
	}
	linesAreTheServices(t, prom, d, vals, b)
	loggedLinesShowThePodsCounts(t, prom, d, vals, b)
}

// pickedValue is the one value a hidden variable lists, as Grafana
// writes it into a query.
func pickedValue(t *testing.T, prom *testenv.Prometheus, v dashboard.VariableModel, vals map[string]string) string {
	t.Helper()
	for _, vq := range VariableQueries(dashboard.Dashboard{Templating: dashboard.DashboardDashboardTemplating{List: []dashboard.VariableModel{v}}}) {
		res, err := instantQuery(prom, fmt.Sprintf("count by (%s) (%s)", vq.Label, grafanatest.Expand(vq.Selector, vals)))
		if err != nil || len(res) != 1 {
			t.Fatalf("variable %s lists %v (%v), want one value", v.Name, res, err)
		}
		value := res[0].Metric[vq.Label]
		if v.Multi != nil && *v.Multi {
			value = grafanaEscape(value)
		}
		return value
	}
	t.Fatalf("variable %s is not a label_values query", v.Name)
	return ""
}

// onlyOf names the label of a series that holds a value of svc's
// identity (its name, pods, model, selector values) other's has not, or
// says "".
func onlyOf(ls map[string]string, svc, other model.Service) string {
	identity := func(s model.Service) []string {
		id := append(s.Identity(), s.Name+"-0", s.Model)
		return id
	}
	for name, v := range ls {
		if slices.Contains(identity(svc), v) && !slices.Contains(identity(other), v) {
			return name
		}
	}
	return ""
}

// linesAreTheServices: the threshold lines and the objective a kind
// dashboard reads from recordings are the picked service's own.
func linesAreTheServices(t *testing.T, prom *testenv.Prometheus, d dashboard.Dashboard, vals map[string]string, svc model.Service) {
	t.Helper()
	want := map[string]float64{}
	for _, slo := range svc.SLOs {
		want[slo.Name+" objective"] = ratio(slo.Objective)
		if slo.Threshold > 0 {
			want[slo.Name+" SLO: threshold"] = slo.Threshold.Seconds()
		}
	}
	seen := map[string]bool{}
	for _, q := range grafanatest.Queries(d) {
		w, ok := want[q.Legend]
		if !ok {
			continue
		}
		res, err := instantQuery(prom, grafanatest.Expand(q.Expr, vals))
		if err != nil || len(res) != 1 {
			t.Fatalf("%s: %v (%v), want one series", q.Legend, res, err)
		}
		if got, _ := strconv.ParseFloat(res[0].Value[1].(string), 64); !close(got, w) {
			t.Errorf("%s reads %v, want %s's %v", q.Legend, got, svc.Name, w)
		}
		seen[q.Legend] = true
	}
	for legend := range want {
		if !seen[legend] {
			t.Errorf("no line %q", legend)
		}
	}
}

// fleetPromConfig is promConfig for services built as a fleet: their
// fleet rule files, which record what the kind dashboard reads.
func fleetPromConfig(t *testing.T, dir string, svcs []model.Service) string {
	t.Helper()
	var ruleFiles []string
	var jobs []map[string]any
	for _, svc := range svcs {
		p := plan.NewIn(svc, plan.Fleet)
		groups := append(p.Local, p.Global...)
		for i := range groups {
			groups[i].Interval = "" // the period group's minutes would outlast the test
		}
		ruleFiles = append(ruleFiles,
			writeRuleFile(t, filepath.Join(dir, svc.Name+".rules.yaml"), groups),
			writeRuleFile(t, filepath.Join(dir, svc.Name+".gpu-rules.yaml"), p.GPURules))
		jobs = append(jobs, runtimeJob(t, svc))
	}
	var pools []gpualerts.PoolPlan // the alerts about GPUs, once, as prometheus.yml loads them
	for _, pool := range gpualerts.Pools(svcs) {
		pools = append(pools, pool.Plan())
	}
	ruleFiles = append(ruleFiles, writeRuleFile(t, filepath.Join(dir, "gpu-rules.yaml"), gpualerts.BuildPools(pools)))
	cfg := map[string]any{
		"global":         map[string]string{"scrape_interval": "1s", "evaluation_interval": "1s"},
		"rule_files":     ruleFiles,
		"scrape_configs": append(jobs, dcgmJobs(t, svcs)...),
	}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
