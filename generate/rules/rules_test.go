package rules_test

import (
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/spec"
)

// A spec whose values would break naive string building: quotes,
// backslashes, braces, template markers, non-ASCII.
const awkward = `package slo
services: "odd-one": {
	runtime: "vllm"
	model:   "org/model \"v2\" {beta} \\ ü"
	selector: {namespace: "ns\"x", job: "job\\y", team_label: "{{ $labels.x }}"}
	alerting: {runbook_url: "https://wiki/{{ .Service }}", labels: {owner: "a\"b"}}
	slos: {availability: objective: 99.9, ttft: {objective: 99, threshold: "1s"}}
}`

func load(t *testing.T, src string) model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services[0]
}

func TestRuleFilesPassPrometheus242Checks(t *testing.T) {
	svc := load(t, awkward)
	groups := rules.Build(svc)
	if errs := rules.Check(groups); len(errs) > 0 {
		t.Fatal(errs)
	}
	out, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	if errs := promcompat.CheckRules("rules.yaml", out); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, out)
	}
	if !strings.HasPrefix(string(out), genfile.Header) {
		t.Error("no generated-code header")
	}
}

// Label values from the spec reach PromQL escaped: parsing the recorded
// expression gives back exactly the spec's values.
func TestSpecValuesAreEscapedInPromQL(t *testing.T) {
	svc := load(t, awkward)
	want := map[string]string{"namespace": `ns"x`, "job": `job\y`, "team_label": "{{ $labels.x }}", "model_name": `org/model "v2" {beta} \ ü`}
	for _, r := range rules.Build(svc)[0].Rules {
		if r.Record != rules.Requests(model.BaseWindow) || r.Labels["slo"] != "ttft" {
			continue
		}
		e, err := parser.NewParser(parser.Options{}).ParseExpr(r.Expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, ms := range parser.ExtractSelectors(e) {
			for _, m := range ms {
				if v, ok := want[m.Name]; ok && m.Value != v {
					t.Errorf("%s = %q, want %q", m.Name, m.Value, v)
				}
			}
		}
		return
	}
	t.Fatal("no ttft request recording")
}

func TestSpecTextIsNotRunAsATemplate(t *testing.T) {
	svc := load(t, awkward)
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if url, ok := r.Annotations["runbook_url"]; ok && url != `https://wiki/{{ "{{" }} .Service {{ "}}" }}` {
				t.Errorf("%s runbook_url %q: template markers not escaped", r.Alert, url)
			}
		}
	}
}

func TestEveryAlertCarriesRoutingLabels(t *testing.T) {
	svc := load(t, awkward)
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			for _, l := range []string{"service", "severity"} {
				if r.Labels[l] == "" {
					t.Errorf("%s lacks %s", r.Alert, l)
				}
			}
			if r.Alert == rules.BurnAlert {
				for _, l := range []string{"slo", "tier", "long_window", "short_window"} {
					if r.Labels[l] == "" {
						t.Errorf("%s lacks %s", r.Alert, l)
					}
				}
			}
		}
	}
}
