package ruletests_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
	"github.com/slogen-dev/slogen/internal/testfile"
)

func load(t *testing.T, src string) model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte("package slo\n" + src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services[0]
}

// write puts a service's rules and the tests generated for another (or the
// same) service's rules side by side, and returns the test files.
// mustFail runs the tests generated for one service against the rules of
// another, wants some to fail, and returns what the runner printed.
func mustFail(t *testing.T, rulesFor, testsFor model.Service, passed string) string {
	t.Helper()
	var out bytes.Buffer
	failed, err := promtest.Run(context.Background(), &out, write(t, rulesFor, testsFor)...)
	if err != nil || failed == 0 {
		t.Fatalf("%s (%v):\n%s", passed, err, out.String())
	}
	return out.String()
}

func write(t *testing.T, rulesFor, testsFor model.Service) []string {
	t.Helper()
	dir := t.TempDir()
	rf, err := rules.Marshal(rules.File{Groups: rules.Build(rulesFor)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), rf, 0o644); err != nil {
		t.Fatal(err)
	}
	suite := ruletests.Build(testsFor)
	files := map[string]testfile.File{
		"rules_test.yaml":      {RuleFiles: []string{"rules.yaml"}, EvaluationInterval: genfile.Duration(ruletests.EvaluationInterval), Tests: suite.Tests},
		"rules-long_test.yaml": {RuleFiles: []string{"rules.yaml"}, EvaluationInterval: genfile.Duration(ruletests.LongEvaluationInterval), Tests: suite.Long},
	}
	if _, global := rules.Split(rulesFor); global != nil {
		gf, err := rules.Marshal(rules.File{Groups: global})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "rules.global.yaml"), gf, 0o644); err != nil {
			t.Fatal(err)
		}
		files["rules.global_test.yaml"] = testfile.File{RuleFiles: []string{"rules.global.yaml"}, EvaluationInterval: genfile.Duration(ruletests.EvaluationInterval), Tests: suite.Global}
	}
	var paths []string
	for name, f := range files {
		tf, err := testfile.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, tf, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// Objectives and periods at the edges of the math: a budget spent in
// seconds, capped tiers, rescaled factors, no guard, slow for: durations.
var edgeSpecs = map[string]string{
	"five nines":    `services: s: {runtime: "vllm", slos: availability: objective: 99.999}`,
	"90 percent 7d": `services: s: {runtime: "sglang", slos: ttft: {objective: 90, threshold: "1s", window: "7d"}}`,
	"28d no guard":  `services: s: {runtime: "tgi", alerting: min_events: 0, slos: availability: {objective: 99, window: "28d"}}`,
	"long for":      `services: s: {runtime: "triton", alerting: for: {page_fast: "10m", no_data: "5m"}, slos: availability: objective: 99.9}`,
	// promtool evaluates the period group every minute, so a young rule
	// set's day and three-day windows weigh its outage four times what a
	// server's do: with no `for`, the tickets open in the tests.
	"tickets at once": `services: s: {runtime: "vllm", selector: {job: "vllm", namespace: "ai"}, alerting: for: {ticket_fast: "0s", ticket_slow: "0s"}, slos: availability: objective: 99.5}`,
	"tpot and queue":  `services: s: {runtime: "vllm", slos: {tpot: {objective: 99, threshold: "50ms"}, queue: {objective: 95, threshold: "1s"}}}`,
	"tgi tpot":        `services: s: {runtime: "tgi", slos: tpot: {objective: 99, threshold: "98.526125ms"}}`,
	"sglang queue":    `services: s: {runtime: "sglang", slos: queue: {objective: 99, threshold: "2s"}}`,
	"sglang split":    `services: s: {runtime: "sglang", slos: {availability: {objective: 99.5, group_by: ["model_name"], max_groups: 3}, ttft: {objective: 99, threshold: "1s", group_by: ["model_name"]}}}`,
	"triton split":    `services: s: {runtime: "triton", slos: availability: {objective: 99.9, group_by: ["model", "version"], max_groups: 2}}`,
	"ratio split":     `services: s: {runtime: "vllm", slos: tenants: {sli: "ratio", objective: 99, bad: "sum by (tenant) (rate(gw_requests_total{code=\"500\"}[$window]))", total: "sum by (tenant) (rate(gw_requests_total[$window]))", group_by: ["tenant"], max_groups: 4}}`,
	"global":          `services: s: {runtime: "triton", global: label: "cluster", slos: {availability: objective: 99.9, ttft: {objective: 99, threshold: "2s"}}}`,
	"global split":    `services: s: {runtime: "sglang", global: label: "region", alerting: min_events: 0, slos: ttft: {objective: 99, threshold: "1s", group_by: ["model_name"], max_groups: 2}}`,
	"trtllm queue":    `services: s: {runtime: "trtllm", slos: {availability: objective: 99.5, tpot: {objective: 99, threshold: "50ms"}, queue: {objective: 99, threshold: "300ms"}}}`,
	"dynamo model":    `services: s: {runtime: "dynamo", model: "Qwen/Qwen3-0.6B", slos: {availability: objective: 99.5, goodput: {objective: 99, bounds: {ttft: "1s", e2e: "16s"}}}}`,
	"custom two SLOs": `services: s: {runtime: "custom", metrics: {requests: "req_total", errors: "req_total{status=\"error\"}", latency: "lat_seconds"}, slos: {availability: objective: 99.5, latency: {objective: 95, threshold: "250ms"}}}`,
	// SLOs that read the same bucket: each test writes it once, and the
	// SLOs that share it are expected to alert on what it carries.
	"shared buckets":            `services: s: {runtime: "vllm", slos: {ttft: {objective: 99, threshold: "1s"}, latency: {objective: 99.9, threshold: "20s"}, "latency-loose": {sli: "latency", objective: 99, threshold: "20s"}, goodput: {objective: 99.5, bounds: {ttft: "1s", tpot: "50ms", e2e: "20s"}}}}`,
	"goodput 99.9 three bounds": `services: s: {runtime: "vllm", slos: goodput: {objective: 99.9, bounds: {ttft: "1s", tpot: "50ms", e2e: "20s"}}}`,
	"sglang goodput split":      `services: s: {runtime: "sglang", slos: goodput: {objective: 99, bounds: {ttft: "1s", e2e: "20s"}, group_by: ["model_name"], max_groups: 2}}`,
	"tgi goodput":               `services: s: {runtime: "tgi", slos: {availability: objective: 99.5, goodput: {objective: 99, bounds: {tpot: "98.526125ms", e2e: "12.783403949s"}}}}`,
}

func TestGeneratedTestsPassInProcess(t *testing.T) { passInProcess(t, edgeSpecs) }

// passInProcess runs each spec's generated tests in process.
func passInProcess(t *testing.T, specs map[string]string) {
	for name, src := range specs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			svc := load(t, src)
			var out bytes.Buffer
			failed, err := promtest.Run(context.Background(), &out, write(t, svc, svc)...)
			if err != nil || failed > 0 {
				t.Errorf("generated tests fail (%d, %v):\n%s", failed, err, out.String())
			}
		})
	}
}

// TestGeneratedTestsPassPromtool runs them under promtool 2.42, in CI.
func TestGeneratedTestsPassPromtool(t *testing.T) {
	testenv.CrossCheck(t)
	promtool := testenv.Tool(t, "promtool")
	for name, src := range edgeSpecs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			svc := load(t, src)
			if out, err := exec.Command(promtool, append([]string{"test", "rules"}, write(t, svc, svc)...)...).CombinedOutput(); err != nil {
				t.Errorf("promtool: %v\n%s", err, out)
			}
		})
	}
}

// The tests must be able to fail: rules for 99.9 % page on an outage
// sooner than tests written for 99 % expect, and stay quiet in the slow
// burn that tickets at 99 %.
func TestGeneratedTestsCatchWrongRules(t *testing.T) {
	strict := load(t, `services: s: {runtime: "vllm", slos: availability: objective: 99.9}`)
	loose := load(t, `services: s: {runtime: "vllm", slos: availability: objective: 99}`)
	out := mustFail(t, strict, loose, "tests for 99% passed against rules for 99.9%")
	if !strings.Contains(out, "alertname: SLOErrorBudgetBurn") {
		t.Errorf("failure does not name the burn alert:\n%s", out)
	}
}

// A split SLO whose failure counter exists for one value only: the other
// value records zero errors from its first sample, not nothing, so its
// error rates and budget over long windows are whole.
func TestSplitSLOFillsInMissingFailures(t *testing.T) {
	// A second SLO over another period has a coverage rule of its own.
	svc := load(t, `services: s: {runtime: "sglang", slos: {availability: {objective: 99, group_by: ["model_name"]}, ttft: {objective: 99, threshold: "1s", window: "7d"}}}`)
	series := func(name, model, values string) testfile.Series {
		return testfile.Series{Series: fmt.Sprintf(`%s{model_name=%q}`, name, model), Values: values}
	}
	at := func(expr string, want map[string]int64) testfile.ExprTest {
		et := testfile.ExprTest{Expr: expr, EvalTime: "2h", ExpSamples: []testfile.ExpSample{}}
		for _, m := range slices.Sorted(maps.Keys(want)) {
			et.ExpSamples = append(et.ExpSamples, testfile.ExpSample{Labels: fmt.Sprintf(`{model_name=%q}`, m), Value: want[m]})
		}
		return et
	}
	test := testfile.Test{
		Name:     "failures of one model only",
		Interval: "1m",
		InputSeries: []testfile.Series{
			series("sglang:num_requests_total", "a", "0+100x120"),
			series("sglang:num_requests_total", "b", "0+100x120"),
			series("sglang:num_aborted_requests_total", "a", "0+10x120"),
		},
		ExprTests: []testfile.ExprTest{
			at(`sum by (model_name) (round(100 * slogen:slo_errors:rate1h / slogen:slo_requests:rate1h))`, map[string]int64{"a": 10, "b": 0}),
			// The 3d window counts the time before the rules' first sample as
			// error-free: the ratio it reads, over the share it covers, is the 10 %.
			at(`sum by (model_name) (round(100 * slogen:slo_errors:rate3d / slogen:slo_requests:rate3d / (count_over_time(slogen:slo_requests_downsampled:rate5m{slo="availability"}[3d]) / 1080)))`, map[string]int64{"a": 10, "b": 0}),
			at(`sum by (model_name) (round(100 * slogen:slo_error_budget_remaining:ratio))`, map[string]int64{"a": 97, "b": 100}), // 2h at 10 % of a 1 % budget over 30d spend 2.8 % of it
			// vet's count of the series each value adds is the rules' own.
			at(`count by (model_name) ({__name__=~"slogen:.+", model_name!=""})`, map[string]int64{"a": int64(rules.GroupSeries(svc, svc.SLOs[0])), "b": int64(rules.GroupSeries(svc, svc.SLOs[0]))}),
		},
	}
	runOne(t, rules.Build(svc), "4m", test) // the period group's interval, which promtool does not take from the group
}

// The generated goodput tests stall each bound: rules that leave a bound
// out do not page when it stalls.
func TestGoodputTestsCatchAMissingBound(t *testing.T) {
	both := load(t, `services: s: {runtime: "vllm", slos: goodput: {objective: 99, bounds: {ttft: "1s", tpot: "50ms"}}}`)
	ttftOnly := load(t, `services: s: {runtime: "vllm", slos: goodput: {objective: 99, bounds: {ttft: "1s", e2e: "20s"}}}`)
	out := mustFail(t, ttftOnly, both, "tests for ttft and tpot passed against rules without tpot")
	if !strings.Contains(out, "tpot 50ms bound alone") {
		t.Errorf("the failing test is not the tpot stall:\n%s", out)
	}
}

// A goodput SLI adds each bound's bad requests, up to every request: 30 %
// slow to the first token and 20 % slow per token read as 50 % bad;
// 80 % and 60 % read as all of them, not 140 %.
func TestGoodputUpperBound(t *testing.T) {
	svc := load(t, `services: s: {runtime: "vllm", slos: goodput: {objective: 99, bounds: {ttft: "1s", tpot: "50ms"}}}`)
	series := func(name, values string) testfile.Series {
		return testfile.Series{Series: name, Values: values}
	}
	percent := testfile.ExprTest{
		Expr:       `round(100 * slogen:slo_errors:rate5m / slogen:slo_requests:rate5m)`,
		ExpSamples: []testfile.ExpSample{{Labels: `{service="s", slo="goodput"}`}},
	}
	at := func(m string, want int64) testfile.ExprTest {
		e := percent
		e.EvalTime, e.ExpSamples = m, []testfile.ExpSample{{Labels: percent.ExpSamples[0].Labels, Value: want}}
		return e
	}
	test := testfile.Test{
		Name:     "bounds added, at most all",
		Interval: "1m",
		InputSeries: []testfile.Series{
			series(`vllm:time_to_first_token_seconds_count`, "0+100x20 2000+100x20"),
			series(`vllm:time_to_first_token_seconds_bucket{le="1.0"}`, "0+70x20 1400+20x20"),
			series(`vllm:request_time_per_output_token_seconds_count`, "0+100x20 2000+100x20"),
			series(`vllm:request_time_per_output_token_seconds_bucket{le="0.05"}`, "0+80x20 1600+40x20"),
		},
		ExprTests: []testfile.ExprTest{at("15m", 50), at("35m", 100)},
	}
	runOne(t, rules.Build(svc), "1m", test)
}

// runOne runs one hand-written test of the rules in process and in
// promtool.
func runOne(t *testing.T, groups []rules.Group, interval string, test testfile.Test) {
	t.Helper()
	file := writeOne(t, groups, interval, test)
	var out bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &out, file); err != nil || failed > 0 {
		t.Errorf("in process (%d, %v):\n%s", failed, err, out.String())
	}
	if out, err := exec.Command(testenv.Tool(t, "promtool"), "test", "rules", file).CombinedOutput(); err != nil {
		t.Errorf("promtool: %v\n%s", err, out)
	}
}

// writeOne writes groups as rules.yaml and one test of them beside it,
// and returns the test file.
func writeOne(t *testing.T, groups []rules.Group, interval string, test testfile.Test) string {
	t.Helper()
	dir := t.TempDir()
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	tf, err := testfile.Marshal(testfile.File{RuleFiles: []string{"rules.yaml"}, EvaluationInterval: interval, Tests: []testfile.Test{test}})
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{"rules.yaml": rf, "test.yaml": tf} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "test.yaml")
}
