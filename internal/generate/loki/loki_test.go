package loki_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	promodel "github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/generate/loki"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

// specs are services that ask for Loki rules, alone and as a fleet, with
// the stream labels of Promtail's and Alloy's Kubernetes defaults and of
// Loki's OTLP endpoint.
var specs = map[string]string{
	"vllm": `services: chat: {
		runtime: "vllm"
		selector: {namespace: "inference", job: "vllm"}
		slos: ttft: {objective: 99, threshold: "1s"}
		loki: {}
	}`,
	"sglang": `services: chat: {
		runtime: "sglang"
		selector: {namespace: "inference", container: "sglang"}
		slos: ttft: {objective: 99, threshold: "1s"}
		loki: {}
	}`,
	"otlp": `services: chat: {
		runtime: "triton"
		selector: namespace: "inference"
		slos: availability: objective: 99.5
		loki: labels: {namespace: "k8s_namespace_name", pod: "k8s_pod_name", container: "k8s_container_name"}
	}`,
	"fleet": `services: {
		a: {runtime: "vllm", selector: namespace: "inference", slos: ttft: {objective: 99, threshold: "1s"}, loki: {}, collector: requests_per_second: 10}
		b: {runtime: "sglang", selector: namespace: "inference", slos: ttft: {objective: 99, threshold: "2s"}, loki: {}}
		c: {runtime: "vllm", selector: namespace: "inference", slos: availability: objective: 99}
	}`,
}

// services loads a spec's services.
func services(t *testing.T, cue string) []model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(cue)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

func build(t *testing.T, cue string) []byte {
	t.Helper()
	data, err := loki.Build(services(t, cue))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// rulerFile mirrors the rules file Loki's ruler reads, as "Alerting and
// recording rules" documents it (grafana/loki docs/sources/alert/_index.md
// at 005e5ff4): Prometheus's rule groups (name, interval, limit, rules),
// each rule alerting (alert, expr, for, labels, annotations) or recording
// (record, expr, labels), expr in LogQL.
type rulerFile struct {
	Groups []struct {
		Name     string `yaml:"name"`
		Interval string `yaml:"interval"`
		Limit    int    `yaml:"limit"`
		Rules    []struct {
			Alert       string            `yaml:"alert"`
			Record      string            `yaml:"record"`
			Expr        string            `yaml:"expr"`
			For         string            `yaml:"for"`
			Labels      map[string]string `yaml:"labels"`
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"rules"`
	} `yaml:"groups"`
}

// decode reads a rules file strictly: a field the format does not have
// is an error.
func decode(t *testing.T, data []byte) rulerFile {
	t.Helper()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f rulerFile
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("%v in\n%s", err, data)
	}
	return f
}

// checkShape checks what the ruler checks of a file before it evaluates
// it: group names unique and set, each rule an alert with an
// expression, a `for` that is a duration, valid label names.
func checkShape(t *testing.T, f rulerFile) {
	t.Helper()
	seen := map[string]bool{}
	for _, g := range f.Groups {
		if g.Name == "" || seen[g.Name] {
			t.Errorf("group name %q is empty or repeated", g.Name)
		}
		seen[g.Name] = true
		if len(g.Rules) == 0 {
			t.Errorf("group %s has no rule", g.Name)
		}
		for _, r := range g.Rules {
			if r.Alert == "" || r.Record != "" || r.Expr == "" {
				t.Errorf("group %s: rule %q/%q is not an alert with an expression", g.Name, r.Alert, r.Record)
			}
			if _, err := promodel.ParseDuration(r.For); r.For != "" && err != nil {
				t.Errorf("%s: for %q: %v", r.Alert, r.For, err)
			}
			for k := range r.Labels {
				if !promodel.LabelName(k).IsValidLegacy() {
					t.Errorf("%s: label name %q", r.Alert, k)
				}
			}
		}
	}
}

// TestRulesAreLokisRuleFormat: every file slogen writes for the specs
// and every example's committed one decodes strictly into the ruler's
// format and has its shape.
func TestRulesAreLokisRuleFormat(t *testing.T) {
	files := map[string][]byte{}
	for name, cue := range specs {
		files[name] = build(t, cue)
	}
	for _, pattern := range []string{"../../../examples/*/generated/" + loki.File, "../../../examples/*/generated/*/" + loki.File} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			files[p] = data
		}
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			f := decode(t, data)
			if len(f.Groups) == 0 {
				t.Fatal("no group")
			}
			checkShape(t, f)
		})
	}
}

// TestOnlyServicesThatAskGetRules: no loki block, or a runtime that
// writes no fatal line slogen knows, is no file; in a fleet, a group per
// service that asks.
func TestOnlyServicesThatAskGetRules(t *testing.T) {
	for name, cue := range map[string]string{
		"no service asks":      `services: a: {runtime: "vllm", slos: availability: objective: 99}`,
		"a runtime of no line": `services: a: {runtime: "llamacpp", selector: namespace: "x", slos: {}, loki: {}}`,
	} {
		if data := build(t, cue); data != nil {
			t.Errorf("%s: got rules:\n%s", name, data)
		}
	}
	var groups []string
	for _, g := range decode(t, build(t, specs["fleet"])).Groups {
		groups = append(groups, g.Name)
	}
	if want := []string{"slogen-a-logs", "slogen-b-logs"}; !slices.Equal(groups, want) {
		t.Errorf("the fleet's groups are %v, want %v", groups, want)
	}
}
