package ruletests_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
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
	var paths []string
	for name, f := range map[string]ruletests.File{
		"rules_test.yaml":      {RuleFiles: []string{"rules.yaml"}, EvaluationInterval: genfile.Duration(ruletests.EvaluationInterval), Tests: suite.Tests},
		"rules-long_test.yaml": {RuleFiles: []string{"rules.yaml"}, EvaluationInterval: genfile.Duration(ruletests.LongEvaluationInterval), Tests: suite.Long},
	} {
		tf, err := ruletests.Marshal(f)
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
	"five nines":      `services: s: {runtime: "vllm", slos: availability: objective: 99.999}`,
	"90 percent 7d":   `services: s: {runtime: "sglang", slos: ttft: {objective: 90, threshold: "1s", window: "7d"}}`,
	"28d no guard":    `services: s: {runtime: "tgi", alerting: min_events: 0, slos: availability: {objective: 99, window: "28d"}}`,
	"long for":        `services: s: {runtime: "triton", alerting: for: {page_fast: "10m", no_data: "5m"}, slos: availability: objective: 99.9}`,
	"tpot and queue":  `services: s: {runtime: "vllm", slos: {tpot: {objective: 99, threshold: "50ms"}, queue: {objective: 95, threshold: "1s"}}}`,
	"tgi tpot":        `services: s: {runtime: "tgi", slos: tpot: {objective: 99, threshold: "98.526125ms"}}`,
	"sglang queue":    `services: s: {runtime: "sglang", slos: queue: {objective: 99, threshold: "2s"}}`,
	"custom two SLOs": `services: s: {runtime: "custom", metrics: {requests: "req_total", errors: "req_total{status=\"error\"}", latency: "lat_seconds"}, slos: {availability: objective: 99.5, latency: {objective: 95, threshold: "250ms"}}}`,
}

func TestGeneratedTestsPassInProcess(t *testing.T) {
	for name, src := range edgeSpecs {
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

func TestGeneratedTestsPassPromtool(t *testing.T) {
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
	var out bytes.Buffer
	failed, err := promtest.Run(context.Background(), &out, write(t, strict, loose)...)
	if err != nil || failed == 0 {
		t.Fatalf("tests for 99%% passed against rules for 99.9%% (%v):\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "alertname: SLOErrorBudgetBurn") {
		t.Errorf("failure does not name the burn alert:\n%s", out.String())
	}
}
