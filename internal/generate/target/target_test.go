package target

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	yamlv3 "go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

const fixture = `package slo
services: chat: {
	runtime: "vllm", model: "llama", selector: {job: "chat", namespace: "ml"}
	gpu: {product: "NVIDIA H100 80GB HBM3", count: 1}
	scrape: {mode: "operator", monitor_labels: {release: "kube-prometheus"}}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s"}}
}
`

func service(t *testing.T) (model.Service, []rules.Group) {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "chat.cue", Data: []byte(fixture)})
	if err != nil {
		t.Fatal(err)
	}
	svc := res.Spec.Services[0]
	return svc, append(rules.Build(svc), gpualerts.Build(gpualerts.NewPlan(svc))...)
}

// writtenFile, writtenGroup and writtenRule are a rule file as it is
// written, each query the text it prints, and writtenPrometheusRule the
// PrometheusRule that wraps its groups, read back.
type writtenFile struct {
	Groups []writtenGroup `yaml:"groups"`
}

type writtenGroup struct {
	Name     string        `yaml:"name"`
	Interval string        `yaml:"interval,omitempty"`
	Rules    []writtenRule `yaml:"rules"`
}

type writtenRule struct {
	Record      string            `yaml:"record,omitempty"`
	Alert       string            `yaml:"alert,omitempty"`
	Expr        string            `yaml:"expr"`
	For         string            `yaml:"for,omitempty"`
	Labels      map[string]string `yaml:"labels,omitempty"`
	Annotations map[string]string `yaml:"annotations,omitempty"`
}

type writtenPrometheusRule struct {
	Spec struct {
		Groups []writtenGroup `yaml:"groups"`
	} `yaml:"spec"`
}

// written are groups as rules.yaml holds them, read back.
func written(t *testing.T, groups []rules.Group) []writtenGroup {
	t.Helper()
	data, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	var f writtenFile
	if err := yamlv3.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f.Groups
}

// Every target wraps the same rule groups: parsed back and unwrapped, they
// are the groups of rules.yaml and gpu-rules.yaml, and promtool 2.42
// checks them.
func TestEveryTargetWrapsTheSameRules(t *testing.T) {
	svc, groups := service(t)
	unwrap := map[Name]func([]byte) ([]writtenGroup, error){
		Operator: func(b []byte) ([]writtenGroup, error) {
			var pr writtenPrometheusRule
			err := yamlv3.Unmarshal(b, &pr)
			return pr.Spec.Groups, err
		},
		Mimir: func(b []byte) ([]writtenGroup, error) {
			var m struct {
				Namespace string         `yaml:"namespace"`
				Groups    []writtenGroup `yaml:"groups"`
			}
			err := yamlv3.Unmarshal(b, &m)
			if m.Namespace != svc.Name {
				t.Errorf("mimir namespace %q, want the service's name", m.Namespace)
			}
			return m.Groups, err
		},
		Thanos: func(b []byte) ([]writtenGroup, error) {
			var f struct {
				Groups []struct {
					writtenGroup            `yaml:",inline"`
					PartialResponseStrategy string `yaml:"partial_response_strategy"`
				} `yaml:"groups"`
			}
			err := yamlv3.Unmarshal(b, &f)
			var out []writtenGroup
			for _, g := range f.Groups {
				if g.PartialResponseStrategy != "abort" {
					t.Errorf("thanos group %s: partial_response_strategy %q, want abort", g.Name, g.PartialResponseStrategy)
				}
				out = append(out, g.writtenGroup)
			}
			return out, err
		},
	}
	promtool := testenv.Tool(t, "promtool")
	for _, name := range Names {
		if name == Prometheus { // it reads the rule files themselves
			continue
		}
		if unwrap[name] == nil {
			t.Errorf("target %s: this test does not read its files back; add how to unwrap its groups", name)
			continue
		}
		files, err := Files(name, svc, Groups{Local: groups}, "")
		if err != nil || len(files) != 1 {
			t.Fatalf("%s: %d files, %v", name, len(files), err)
		}
		for path, data := range files {
			got, err := unwrap[name](data)
			if err != nil {
				t.Fatalf("%s %s: %v", name, path, err)
			}
			if !reflect.DeepEqual(got, written(t, groups)) {
				t.Errorf("%s %s: the groups differ from the rule files'", name, path)
			}
			plain, err := genfile.MarshalYAML(writtenFile{Groups: got})
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "rules.yaml")
			if err := os.WriteFile(p, plain, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(promtool, "check", "rules", p).CombinedOutput(); err != nil {
				t.Errorf("%s: promtool: %v\n%s", name, err, out)
			}
		}
	}
	if files, err := Files(Prometheus, svc, Groups{Local: groups}, ""); err != nil || len(files) != 0 {
		t.Errorf("prometheus: %v %v, want nothing beyond the rule files", files, err)
	}
}

// The PrometheusRule is the operator's: it decodes strictly into its type,
// in the selector's namespace (or --namespace), with the monitor labels
// the operator's ruleSelector matches.
func TestPrometheusRuleDecodesStrictly(t *testing.T) {
	svc, groups := service(t)
	for ns, want := range map[string]string{"": "ml", "monitoring": "monitoring"} {
		files, err := Files(Operator, svc, Groups{Local: groups}, ns)
		if err != nil {
			t.Fatal(err)
		}
		var pr monitoringv1.PrometheusRule
		if err := yaml.UnmarshalStrict(files["prometheusrule.yaml"], &pr); err != nil {
			t.Fatalf("the operator rejects it: %v", err)
		}
		if pr.Kind != "PrometheusRule" || pr.Namespace != want || pr.Labels["release"] != "kube-prometheus" || len(pr.Spec.Groups) != len(groups) {
			t.Errorf("--namespace %q: %s in %q, labels %v, %d groups", ns, pr.Name, pr.Namespace, pr.Labels, len(pr.Spec.Groups))
		}
	}
}

// Past the operator's size limit, the groups split, in order, into
// numbered PrometheusRules that each stay under it.
func TestPrometheusRulesSplitByGroup(t *testing.T) {
	svc, groups := service(t)
	one, err := prometheusRules(svc, groups, "", localRule, MaxPrometheusRule)
	if err != nil {
		t.Fatal(err)
	}
	// A byte under them all: half would be under the GPU group alone.
	max := len(one["prometheusrule.yaml"]) - 1
	files, err := prometheusRules(svc, groups, "", localRule, max)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 2 {
		t.Fatalf("%d files under a limit of %d bytes, want a split", len(files), max)
	}
	var names []string
	for i := 1; i <= len(files); i++ {
		data := files[namePath("prometheusrule", i, len(files))]
		if data == nil || len(data) > max {
			t.Fatalf("prometheusrule-%d.yaml: %d bytes, limit %d", i, len(data), max)
		}
		var pr writtenPrometheusRule
		if err := yamlv3.Unmarshal(data, &pr); err != nil {
			t.Fatal(err)
		}
		for _, g := range pr.Spec.Groups {
			names = append(names, g.Name)
		}
	}
	var want []string
	for _, g := range groups {
		want = append(want, g.Name)
	}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("groups %v across the files, want %v in order", names, want)
	}
	if _, err := prometheusRules(svc, groups, "", localRule, 100); err == nil || !strings.Contains(err.Error(), "above the operator's 100") {
		t.Errorf("a group above the limit: %v", err)
	}
}

// The dashboard ConfigMap is Kubernetes': it decodes strictly into its
// type, carries the sidecar's label, and holds the dashboard unchanged.
func TestDashboardConfigMapDecodesStrictly(t *testing.T) {
	svc, _ := service(t)
	dashboard := []byte("{\n  \"uid\": \"slogen-chat\",\n  \"title\": \"a \\\"quoted\\\" title\"\n}\n")
	data, err := DashboardConfigMap(svc, dashboard, "", "grafana_dashboard", "1")
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := yaml.UnmarshalStrict(data, &cm); err != nil {
		t.Fatalf("Kubernetes rejects it: %v\n%s", err, data)
	}
	if cm.Namespace != "ml" || cm.Labels["grafana_dashboard"] != "1" || cm.Data["chat.json"] != string(dashboard) {
		t.Errorf("ConfigMap %s in %q, labels %v, data %q", cm.Name, cm.Namespace, cm.Labels, cm.Data)
	}
}

// A service that spans clusters: its Prometheus's PrometheusRule holds
// the local groups, a second one in --namespace the global ruler's (for
// prometheus-operator's ThanosRuler), and Mimir's and Thanos's rulers get
// the global groups alone.
func TestGlobalRulesGoToTheGlobalRuler(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "chat.cue", Data: []byte(strings.Replace(fixture, `runtime: "vllm",`, `runtime: "vllm", global: label: "cluster",`, 1))})
	if err != nil {
		t.Fatal(err)
	}
	svc := res.Spec.Services[0]
	local, global := rules.Split(svc)
	g := Groups{Local: append(local, gpualerts.Build(gpualerts.NewPlan(svc))...), Global: global}
	if _, err := Files(Operator, svc, g, ""); err == nil || !strings.Contains(err.Error(), "give --namespace") {
		t.Errorf("a global PrometheusRule without a namespace: %v", err)
	}
	files, err := Files(Operator, svc, g, "monitoring")
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string][]rules.Group{"prometheusrule.yaml": g.Local, "prometheusrule-global.yaml": g.Global} {
		var pr monitoringv1.PrometheusRule
		if err := yaml.UnmarshalStrict(files[path], &pr); err != nil {
			t.Fatalf("%s: the operator rejects it: %v", path, err)
		}
		var got writtenPrometheusRule
		if err := yamlv3.Unmarshal(files[path], &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Spec.Groups, written(t, want)) || pr.Namespace != "monitoring" {
			t.Errorf("%s: %s in %q does not hold its groups", path, pr.Name, pr.Namespace)
		}
		// The clusters' Prometheus select the monitor labels, the global
		// ruler its own: neither runs the other's groups.
		global := path == "prometheusrule-global.yaml"
		if (pr.Labels["release"] == "kube-prometheus") == global || (pr.Labels[GlobalRulerLabel] == "global") != global {
			t.Errorf("%s: labels %v", path, pr.Labels)
		}
	}
	for _, name := range []Name{Mimir, Thanos} {
		files, err := Files(name, svc, g, "")
		if err != nil {
			t.Fatal(err)
		}
		for path, data := range files {
			for _, grp := range global {
				if !strings.Contains(string(data), "name: "+grp.Name+"\n") {
					t.Errorf("%s: %s lacks the global group %s", name, path, grp.Name)
				}
			}
			if strings.Contains(string(data), "name: "+local[0].Name+"\n") {
				t.Errorf("%s: %s holds the local group %s, which reads raw series the ruler does not have", name, path, local[0].Name)
			}
		}
	}
}
