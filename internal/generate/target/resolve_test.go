package target

import (
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

func load(t *testing.T, src string) model.Spec {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec
}

// Three services of one shape, and one with a mode the spec chose.
const resolveFixture = `package slo
_svc: {runtime: "vllm", slos: availability: objective: 99.5}
services: "chat-one": _svc & {selector: {job: "chat-one", namespace: "inference"}}
services: "chat-two": _svc & {selector: {job: "chat-two", namespace: "inference"}}
services: "chat-xyz": _svc & {selector: {job: "chat-xyz", namespace: "inference"}}
services: "chat-zzz": _svc & {selector: {job: "chat-zzz", namespace: "inference"}, scrape: mode: "kubernetes"}
`

// Under the operator target a service whose spec chose no mode gets
// monitors, one that chose keeps its mode; the flags replace every
// service's operator settings, in its shape too, which stays shared.
func TestResolveOperator(t *testing.T) {
	s := load(t, resolveFixture)
	if s.Services[0].Shape == nil || s.Services[0].Shape != s.Services[1].Shape {
		t.Fatal("the fixture's a and b should share a shape")
	}
	release := []labels.Label{{Name: "release", Value: "kps"}}
	got := Resolve(Operator, s, Overrides{Labels: release, DashboardNamespace: "grafana"})
	a, b, kube := got.Services[0], got.Services[1], got.Services[3]
	if a.Scrape.Mode != model.ScrapeOperator || kube.Scrape.Mode != model.ScrapeKubernetes {
		t.Errorf("modes %q and %q, want operator for the unset one and kubernetes for the chosen one", a.Scrape.Mode, kube.Scrape.Mode)
	}
	for _, svc := range []model.Service{a, a.Shape.Sample, a.Shape.Check} {
		if svc.Scrape.Mode != model.ScrapeOperator || !labels.Equal(labels.New(svc.RuleLabels()...), labels.New(release...)) || svc.Operator.DashboardNamespace != "grafana" {
			t.Errorf("%s: mode %q, rule labels %v, dashboard namespace %q", svc.Name, svc.Scrape.Mode, svc.RuleLabels(), svc.Operator.DashboardNamespace)
		}
	}
	if a.Shape != b.Shape || a.Shape == s.Services[0].Shape {
		t.Error("the resolved services should share one new shape")
	}
	if s.Services[0].Scrape.Mode != model.ScrapeKubernetes || s.Services[0].Operator.Labels != nil {
		t.Error("Resolve changed the spec it was given")
	}
	if other := Resolve(Prometheus, s, Overrides{Labels: release}); other.Services[0].Scrape.Mode != model.ScrapeKubernetes {
		t.Error("another target's services should keep scrape configs")
	}
}

// Check refuses unlabelled PrometheusRules unless the Prometheus selects
// them all, takes scrape.monitor_labels as rule labels, as before the
// operator labels, and refuses monitors that would read credentials
// from files; other targets refuse nothing.
func TestCheck(t *testing.T) {
	tests := map[string]struct {
		extra, want string
	}{
		"No labels are refused, with the fix.":          {``, `--target operator: the PrometheusRules of chat (fleet.cue) would carry no labels`},
		"Operator labels are selected.":                 {`operator: labels: release: "kps"`, ``},
		"Monitor labels label the rules when alone.":    {`scrape: monitor_labels: release: "kps"`, ``},
		"Selecting every rule needs no label.":          {`operator: select_all: true`, ``},
		"A credentials file has no place in a monitor.": {`operator: select_all: true, scrape: runtime: authorization: credentials_file: "/t"`, `scrape.runtime.authorization.credentials_file: under --target operator`},
		"Scrape configs the spec chose read files.":     {`operator: select_all: true, scrape: {mode: "kubernetes", runtime: authorization: credentials_file: "/t"}`, ``},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := load(t, "package slo\nservices: chat: {runtime: \"vllm\", selector: {job: \"chat\", namespace: \"ml\"}, slos: availability: objective: 99.5\n"+tc.extra+"}\n")
			err := Check(Operator, Resolve(Operator, s, Overrides{}))
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("got %v, want %q", err, tc.want)
			}
			if err := Check(Thanos, s); err != nil {
				t.Errorf("thanos: %v", err)
			}
		})
	}
}
