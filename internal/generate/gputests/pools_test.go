package gputests

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// poolFleet is a fleet of three pools: chat and search share the default
// job and its settings; hot runs hotter GPUs on the same job, a pool of
// its own that alerts only about the GPUs it claims; vision has its own
// exporter job under host mapping, and pages on XIDs.
const poolFleet = `package slo
services: {
	chat: {
		runtime: "vllm"
		team:    "chat"
		selector: {namespace: "ml", job: "chat"}
		slos: availability: objective: 99.5
	}
	search: {
		runtime: "tgi"
		team:    "search"
		selector: {namespace: "ml", job: "search"}
		slos: availability: objective: 99.5
	}
	hot: {
		runtime: "sglang"
		team:    "chat"
		selector: {namespace: "ml", job: "hot"}
		slos: availability: objective: 99.5
		thresholds: gpu_temp_celsius: 90
	}
	vision: {
		runtime: "triton"
		selector: job: "triton"
		slos: availability: objective: 99.9
		dcgm: {job: "dcgm-hosts", mapping: "host", hosts: ["gpu-node-1"]}
		alerting: page_on: ["GPUXIDErrors"]
	}
}`

func poolPlans(t *testing.T) []gpualerts.PoolPlan {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(poolFleet)})
	if err != nil {
		t.Fatal(err)
	}
	var plans []gpualerts.PoolPlan
	for _, p := range gpualerts.Pools(res.Spec.Services) {
		plans = append(plans, p.Plan())
	}
	return plans
}

// TestPoolsAreTheServicesThatShareAJobAndSettings: one pool per job and
// settings, the job's first alerting about unclaimed GPUs.
func TestPoolsAreTheServicesThatShareAJobAndSettings(t *testing.T) {
	var got []string
	for _, pp := range poolPlans(t) {
		var names []string
		for _, s := range pp.Pool.Services {
			names = append(names, s.Name)
		}
		got = append(got, pp.Pool.Job+": "+strings.Join(names, ",")+map[bool]string{true: " +unclaimed"}[pp.Pool.Unclaimed])
	}
	want := "dcgm-exporter: chat,search +unclaimed; dcgm-exporter: hot; dcgm-hosts: vision +unclaimed"
	if strings.Join(got, "; ") != want {
		t.Errorf("pools: %s\nwant %s", strings.Join(got, "; "), want)
	}
}

// TestPoolTestsCheckEveryAlertOnEveryGPU: each pool alert fires in a
// test and stays quiet in one, and a firing per-GPU alert is expected
// once per GPU: with chat's and search's labels on theirs, none on the
// unclaimed GPU.
func TestPoolTestsCheckEveryAlertOnEveryGPU(t *testing.T) {
	plans := poolPlans(t)
	fired, quiet := map[string]bool{}, map[string]bool{}
	for _, tc := range NewCache().poolTests(plans[0], nil) {
		for _, at := range tc.AlertTests {
			if len(at.ExpAlerts) == 0 {
				quiet[at.Alertname] = true
				continue
			}
			fired[at.Alertname] = true
			if at.Alertname == gpualerts.ExporterDown {
				continue
			}
			var services []string
			for _, a := range at.ExpAlerts {
				services = append(services, a.ExpLabels["service"]+"/"+a.ExpLabels["team"])
			}
			if got := strings.Join(services, " "); got != "chat/chat search/search /" {
				t.Errorf("%s at %s fires on %s; want chat/chat search/search /", at.Alertname, at.EvalTime, got)
			}
		}
	}
	for _, a := range gpualerts.GPUScoped {
		if !fired[a] || !quiet[a] {
			t.Errorf("%s fires in a test: %v, stays quiet in one: %v", a, fired[a], quiet[a])
		}
	}
}

// TestPoolTestsPassInProcess runs the pools' tests against their rules
// with Prometheus 3's engine.
func TestPoolTestsPassInProcess(t *testing.T) {
	files := writePoolTests(t, poolPlans(t), nil)
	var out strings.Builder
	if failed, err := promtest.Run(context.Background(), &out, files...); failed > 0 || err != nil {
		t.Errorf("%d failed, %v\n%s", failed, err, out.String())
	}
}

// TestPoolTestsPassPromtool runs them with promtool, 2.42 in CI, after
// checking the rules with its lint: no two rules of one name share their
// labels.
func TestPoolTestsPassPromtool(t *testing.T) {
	testenv.CrossCheck(t)
	promtool := testenv.Tool(t, "promtool")
	files := writePoolTests(t, poolPlans(t), nil)
	for _, args := range [][]string{
		{"check", "rules", "--lint-fatal", filepath.Join(filepath.Dir(files[0]), "rules.yaml")},
		append([]string{"test", "rules"}, files...),
	} {
		if b, err := exec.Command(promtool, args...).CombinedOutput(); err != nil {
			if _, exit := errors.AsType[*exec.ExitError](err); !exit {
				t.Fatalf("running promtool: %v", err)
			}
			t.Errorf("promtool %s:\n%s", args[0], b)
		}
	}
}

// TestPoolTestsCatchAnAlertTwiceOrUnnamed: with the unclaimed rules
// firing on claimed GPUs too, or the claimed rules naming no service,
// every check that expects a per-GPU alert fails.
func TestPoolTestsCatchAnAlertTwiceOrUnnamed(t *testing.T) {
	for name, broken := range map[string]func(pql.Expr) pql.Expr{
		"unclaimed everywhere": func(e pql.Expr) pql.Expr { return e.(*parser.BinaryExpr).LHS },
		"no service":           func(e pql.Expr) pql.Expr { return pql.Max(e, pql.Without("service", "team")) },
	} {
		t.Run(name, func(t *testing.T) {
			plans := poolPlans(t)[:1]
			tests := NewCache().PoolTests(plans)
			want := 0
			for _, tc := range tests {
				for _, at := range tc.AlertTests {
					if len(at.ExpAlerts) > 0 && at.Alertname != gpualerts.ExporterDown {
						want++
					}
				}
			}
			files := writePoolTests(t, plans, func(r *pql.Expr, claimed bool) {
				if claimed == (name == "no service") {
					*r = broken(*r)
				}
			})
			var out strings.Builder
			failed, err := promtest.Run(context.Background(), &out, files...)
			if err != nil || failed != want || want == 0 {
				t.Fatalf("%d checks failed (%v); want the %d that expect a per-GPU alert\n%s", failed, err, want, out.String())
			}
		})
	}
}

// writePoolTests writes the pools' rule file, each per-GPU alert's
// expression changed by breakRule where given, and their tests.
func writePoolTests(t *testing.T, plans []gpualerts.PoolPlan, breakRule func(e *pql.Expr, claimed bool)) []string {
	t.Helper()
	groups := gpualerts.BuildPools(plans)
	if breakRule != nil {
		for i, r := range groups[0].Rules {
			if r.Alert != "" && r.Alert != gpualerts.ExporterDown {
				breakRule(&groups[0].Rules[i].Expr, strings.Contains(pql.Print(r.Expr), "group_left"))
			}
		}
	}
	return writeFiles(t, groups, testFile{"rules_test.yaml", EvaluationInterval, NewCache().PoolTests(plans)})
}

// TestAFleetServiceClaimsItsGPUs: a fleet's service has no alert about
// GPUs but its own GPUExporterDown, labelled with its exporter's job, and
// its tests, which check its claim, pass against its rules.
func TestAFleetServiceClaimsItsGPUs(t *testing.T) {
	for _, name := range []string{"vllm", "triton"} {
		t.Run(name, func(t *testing.T) {
			plan := gpualerts.NewFleetPlan(fixture(t, name).Service)
			for _, a := range plan.Alerts {
				switch {
				case a.Name == gpualerts.ExporterDown && a.Labels["job"] != plan.Service.DCGM.Job:
					t.Errorf("a fleet's service's %s has job %q, want its exporter's, %q", a.Name, a.Labels["job"], plan.Service.DCGM.Job)
				case a.Name != gpualerts.ExporterDown && slices.Contains(gpualerts.GPUScoped, a.Name):
					t.Errorf("a fleet's service has %s", a.Name)
				}
			}
			suite := NewCache().Tests(plan)
			if !slices.ContainsFunc(suite.Tests, func(tc testfile.Test) bool {
				return len(tc.ExprTests) > 0 && tc.ExprTests[0].Expr == gpualerts.ServiceClaims
			}) {
				t.Error("no test checks the service's claim")
			}
			files := writeFiles(t, ruleGroups(plan), testFile{"rules_test.yaml", EvaluationInterval, suite.Tests})
			var out strings.Builder
			if failed, err := promtest.Run(context.Background(), &out, files...); failed > 0 || err != nil {
				t.Errorf("%d failed, %v\n%s", failed, err, out.String())
			}
		})
	}
}
