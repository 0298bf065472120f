// Package examples_test keeps every example's committed output identical
// to what slogen generates, and proves that output with promtool and with
// slogen's in-process runner.
package examples_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/config"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/loki"
	"github.com/slogen-dev/slogen/internal/outdir"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

var update = flag.Bool("update", false, "regenerate every example's generated/ directory")

// example is a directory holding spec files and their generated/ output.
type example struct {
	dir   string
	specs []string
}

func examples(t *testing.T) []example {
	t.Helper()
	dirs, err := filepath.Glob("*")
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	for _, d := range dirs {
		var specs []string
		for _, ext := range []string{"*.cue", "*.yaml", "*.json"} {
			m, _ := filepath.Glob(filepath.Join(d, ext))
			specs = append(specs, m...)
		}
		if len(specs) > 0 {
			out = append(out, example{dir: d, specs: specs})
		}
	}
	for _, runtime := range profile.Names() {
		if !slices.ContainsFunc(out, func(ex example) bool { return ex.dir == runtime }) {
			t.Fatalf("no example in %s/: each runtime of the profile table has one, named after it", runtime)
		}
	}
	return out
}

func TestExamplesAreFresh(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex.dir, func(t *testing.T) {
			res, err := spec.Load(ex.specs...)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(ex.dir, "generated")
			if *update {
				_, err := outdir.Stream(out, outdir.Options{Inputs: ex.specs}, func(emit func(string, []byte) error) error {
					return generate.Options{}.Stream(res.Spec, emit)
				})
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			diffs, _, err := outdir.Diff(out, outdir.Options{Inputs: ex.specs}, func(emit func(string, []byte) error) error {
				return generate.Options{}.Stream(res.Spec, emit)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) > 0 {
				t.Errorf("%s is stale; run go test ./examples -update:\n  %s", out, strings.Join(diffs, "\n  "))
			}
		})
	}
}

// Building a shipped example prints no warning: the defaults fit every
// runtime (vLLM's and SGLang's memory reservation among them), and what a
// runtime needs to export the metrics (a flag, a version) is a note for
// vet, not a warning on every build.
func TestExamplesBuildWithoutWarnings(t *testing.T) {
	for _, ex := range examples(t) {
		res, err := spec.Load(ex.specs...)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Warnings {
			t.Errorf("%s: %s", ex.dir, w)
		}
	}
}

// The examples' rule tests run in CI and on request, not in the everyday
// go test ./...: internal/generate/ruletests and internal/generate/gputests already run
// every runtime's rule shape in process, and the examples differ from those
// in names and labels. The cross-check runs each example's tests twice,
// in process (slogen test) and under Debian's promtool 2.42:
//
//	SLOGEN_CROSSCHECK=1 go test ./examples -run CrossCheck
func TestExampleRulesCrossCheckInProcess(t *testing.T) {
	testenv.CrossCheck(t)
	for _, ex := range examples(t) {
		t.Run(ex.dir, func(t *testing.T) {
			t.Parallel()
			tests := generated(ex.dir, "*_test.yaml")
			if len(tests) == 0 {
				t.Fatal("no generated tests")
			}
			var out bytes.Buffer
			failed, err := promtest.Run(context.Background(), &out, tests...)
			if err != nil || failed > 0 {
				t.Errorf("slogen test failed (%d, %v):\n%s", failed, err, out.String())
			}
		})
	}
}

// TestExampleRulesCrossCheckPromtool runs promtool check rules and test
// rules on every example.
func TestExampleRulesCrossCheckPromtool(t *testing.T) {
	testenv.CrossCheck(t)
	promtool := testenv.Tool(t, "promtool")
	for _, ex := range examples(t) {
		t.Run(ex.dir, func(t *testing.T) {
			t.Parallel()
			ruleFiles := slices.DeleteFunc(generated(ex.dir, "*rules.yaml"), isLokis)
			tests := classicTests(t, generated(ex.dir, "*_test.yaml"))
			runTool(t, promtool, append([]string{"check", "rules"}, ruleFiles...)...)
			if len(tests) > 0 {
				runTool(t, promtool, append([]string{"test", "rules"}, tests...)...)
			}
		})
	}
}

// classicTests leaves out the test files whose input series hold native
// histograms ({{...}} samples, a service with histograms: "native"):
// promtool 2.42's series notation has none, so it cannot load them.
// TestExampleRulesCrossCheckInProcess runs them with Prometheus's own
// engine, as slogen test does.
func classicTests(t *testing.T, files []string) []string {
	t.Helper()
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("{{schema:")) {
			t.Logf("%s: skipped: its native-histogram series are beyond promtool 2.42; slogen test runs it in process", f)
			continue
		}
		out = append(out, f)
	}
	return out
}

// isLokis reports whether a rule file is Loki's, in LogQL: promtool
// cannot read it (internal/generate/loki tests it).
func isLokis(file string) bool { return filepath.Base(file) == loki.File }

// generated are the example's generated files named like pattern: each
// service's, and a fleet's at the root of its output.
func generated(dir, pattern string) []string {
	root, _ := filepath.Glob(filepath.Join(dir, "generated", pattern))
	services, _ := filepath.Glob(filepath.Join(dir, "generated", "*", pattern))
	return append(root, services...)
}

// TestPrometheusFragmentsLoad loads every example's prometheus.yml with
// Prometheus's own config loader, and where no Kubernetes discovery is in
// it (Debian's promtool 2.42 has none), with promtool check config, which
// also parses every rule file it lists. The loader knows Kubernetes
// discovery only under -tags kubernetes (kubernetes_sd_test.go), as
// .ci/run runs it; without, those fragments are left to that run.
func TestPrometheusFragmentsLoad(t *testing.T) {
	fragments, _ := filepath.Glob(filepath.Join("*", "generated", "prometheus.yml"))
	if len(fragments) == 0 {
		t.Fatal("no example writes a prometheus.yml")
	}
	var static []string
	for _, p := range fragments {
		data, _ := os.ReadFile(p)
		kubernetes := bytes.Contains(data, []byte("kubernetes_sd_configs"))
		if kubernetes && !kubernetesSD {
			t.Logf("%s: Kubernetes discovery is checked under -tags kubernetes", p)
			continue
		}
		cfg, err := config.LoadFile(p, false, promslog.NewNopLogger())
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if len(cfg.RuleFiles) == 0 || len(cfg.ScrapeConfigs) == 0 {
			t.Errorf("%s: %d rule files, %d scrape jobs; want both", p, len(cfg.RuleFiles), len(cfg.ScrapeConfigs))
		}
		if !kubernetes {
			static = append(static, p)
		}
	}
	if len(static) == 0 {
		t.Fatal("no example scrapes static targets, so promtool would check no prometheus.yml")
	}
	// After every fragment's Go check: without promtool this skips.
	promtool := testenv.Tool(t, "promtool")
	for _, p := range static {
		runTool(t, promtool, "check", "config", p)
	}
}

// kubernetesSD is whether this test binary registered Kubernetes
// discovery with Prometheus's config loader (go test -tags kubernetes).
var kubernetesSD bool

func runTool(t *testing.T, tool string, args ...string) {
	t.Helper()
	out, err := exec.Command(tool, args...).CombinedOutput()
	if err != nil {
		t.Errorf("%s %s: %v\n%s", filepath.Base(tool), strings.Join(args, " "), err, out)
	}
}
