package plan_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/spec"
)

// fleetSpec is services of one template, which fill in name, team,
// model, selector values, pods, objectives and thresholds, and adds
// extra (a CUE field) to the service named odd.
func fleetSpec(extra string) string {
	var b strings.Builder
	b.WriteString("package slo\n")
	for i, name := range []string{"alpha", "bravo", "odd"} {
		more := ""
		if name == "odd" {
			more = extra
		}
		fmt.Fprintf(&b, `services: %q: {
	runtime: "vllm"
	team: "team-%d"
	model: "org/model-%d"
	selector: {namespace: "ns-%d", job: %q}
	dcgm: pod: "%s-.*"
	slos: {availability: objective: %d, ttft: {objective: 99, threshold: "%s"}}
	%s
}
`, name, i, i, i, name, name, 99-i, []string{"1s", "0.5s", "2.5s"}[i], more)
	}
	return b.String()
}

func kinds(t *testing.T, src string) map[string]string {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, svc := range res.Spec.Services {
		out[svc.Name] = plan.Kind(svc)
	}
	return out
}

// Services that differ only in what a kind dashboard reads from
// variables and recordings share a kind; one that differs in what it
// draws otherwise is of a kind of its own.
func TestKind(t *testing.T) {
	same := kinds(t, fleetSpec(""))
	if same["alpha"] != same["bravo"] || same["alpha"] != same["odd"] {
		t.Fatalf("one template's services are of different kinds: %v", same)
	}
	if valid := regexp.MustCompile(`^vllm-[0-9a-f]{8}$`); !valid.MatchString(same["alpha"]) {
		t.Errorf("kind %q is not the runtime and 8 hex digits", same["alpha"])
	}
	for what, extra := range map[string]string{
		"another SLO":             `slos: latency: {objective: 99, threshold: "20s"}`,
		"another threshold limit": `thresholds: vram_percent: 80`,
		"host mapping":            `dcgm: {mapping: "host", hosts: ["gpu-1"]}`,
		"another selector label":  `selector: tier: "x"`,
		"spanning clusters":       `global: label: "cluster"`,
		"another SLO period":      `slos: availability: window: "7d"`,
		"a collector block":       `collector: requests_per_second: 10`,
	} {
		got := kinds(t, fleetSpec(extra))
		if got["odd"] == got["alpha"] {
			t.Errorf("%s: odd is of alpha's kind %s", what, got["alpha"])
		}
		if got["alpha"] != same["alpha"] {
			t.Errorf("%s: alpha's kind changed from %s to %s", what, same["alpha"], got["alpha"])
		}
	}
}

func load(t *testing.T, src string) []model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services
}

// With alerting.grafana_url every alert links to its service's
// dashboard: alone, its own; in a fleet, its kind's with the service
// picked. Without it no alert carries the annotation.
func TestAlertsLinkToTheDashboard(t *testing.T) {
	svcs := load(t, fleetSpec(`alerting: grafana_url: "https://grafana.example.com/"`))
	odd := svcs[len(svcs)-1]
	fleet := plan.NewIn(odd, plan.Fleet)
	for p, want := range map[*plan.Service]string{
		plan.New(odd):                   "https://grafana.example.com/d/slogen-odd",
		fleet:                           "https://grafana.example.com/d/slogen-" + fleet.Kind + "?var-service=odd",
		plan.NewIn(svcs[0], plan.Fleet): "",
	} {
		alerts := 0
		for _, g := range append(append(p.Local, p.Global...), p.GPURules...) {
			for _, r := range g.Rules {
				if r.Alert == "" {
					continue
				}
				alerts++
				if got := r.Annotations[plan.DashboardAnnotation]; got != want {
					t.Errorf("%s %s: %s = %q, want %q", p.Svc.Name, r.Alert, plan.DashboardAnnotation, got, want)
				}
			}
		}
		if alerts == 0 {
			t.Errorf("%s has no alerts", p.Svc.Name)
		}
	}
}
