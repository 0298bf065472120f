package generate

import (
	"encoding/json"
	"path"
	"regexp"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/slogen-dev/slogen/internal/generate/overview"
	"github.com/slogen-dev/slogen/internal/generate/target"
)

// kindsSpec are four services of two kinds: three differ only in
// identity, objectives and thresholds; the fourth has another SLO.
const kindsSpec = `package slo
_vllm: {runtime: "vllm", model: "org/m"}
services: {
	a: _vllm & {selector: {namespace: "ml", job: "a"}, slos: {availability: objective: 99.5, ttft: {objective: 99, threshold: "1s"}}}
	b: _vllm & {selector: {namespace: "ml", job: "b"}, slos: {availability: objective: 99.9, ttft: {objective: 95, threshold: "0.5s"}}}
	c: _vllm & {selector: {namespace: "ops", job: "c"}, slos: {availability: objective: 99, ttft: {objective: 90, threshold: "2.5s"}}, dashboard: per_service: true}
	d: _vllm & {selector: {namespace: "ml", job: "d"}, slos: availability: objective: 99.5}
}
`

var infoDashboard = regexp.MustCompile(`record: slogen:service_info\n        expr: vector\(1\)\n        labels:\n          dashboard: (\S+)\n`)

// Every service of a fleet names, in its slogen:service_info, the UID of
// a dashboard the build writes; services of a kind share it; one file
// provider loads them all; only the service that asks has its own.
func TestFleetDashboardPerKind(t *testing.T) {
	_, files := buildSource(t, kindsSpec, Options{})
	uids := map[string]bool{}
	for p, data := range files {
		if path.Dir(p) != FleetDashboardsDir || p == overview.File {
			continue // the overview is every kind's
		}
		var d struct{ UID string }
		if err := json.Unmarshal(data, &d); err != nil {
			t.Fatal(err)
		}
		uids[d.UID] = true
	}
	byService := map[string]string{}
	for _, svc := range []string{"a", "b", "c", "d"} {
		m := infoDashboard.FindSubmatch(files[path.Join(svc, RulesFile)])
		if m == nil {
			t.Fatalf("%s's rules record no slogen:service_info with its dashboard", svc)
		}
		byService[svc] = string(m[1])
		if !uids[byService[svc]] {
			t.Errorf("%s is drawn on %s, which is not written (%v)", svc, m[1], uids)
		}
	}
	if len(uids) != 2 || byService["a"] != byService["b"] || byService["a"] != byService["c"] || byService["a"] == byService["d"] {
		t.Errorf("dashboards %v for services %v, want a, b and c on one, d on another", uids, byService)
	}
	if files[DashboardProvisioningFile] == nil {
		t.Error("no provider")
	}
	for p := range files {
		if path.Base(p) == DashboardFile && p != "c/"+DashboardFile {
			t.Errorf("%s: only c asks for a dashboard of its own", p)
		}
	}
}

// Under --target operator each dashboard comes in a ConfigMap Kubernetes
// accepts, with the sidecar's label, and no provider is written.
func TestFleetDashboardConfigMaps(t *testing.T) {
	_, files := buildSource(t, kindsSpec, Options{Target: target.Operator, Operator: target.Overrides{SelectAll: true, DashboardNamespace: "monitoring"}})
	if files[DashboardProvisioningFile] != nil {
		t.Error("a provider under --target operator")
	}
	n := 0
	for p, data := range files {
		if path.Dir(p) != FleetDashboardConfigMapsDir {
			continue
		}
		n++
		var cm corev1.ConfigMap
		if err := yaml.UnmarshalStrict(data, &cm); err != nil {
			t.Fatalf("%s: Kubernetes rejects it: %v", p, err)
		}
		if cm.Namespace != "monitoring" || cm.Labels["grafana_dashboard"] != "1" || len(cm.Data) != 1 {
			t.Errorf("%s: in %q, labels %v, %d keys", p, cm.Namespace, cm.Labels, len(cm.Data))
		}
	}
	if n != 4 { // two kinds, c's own and the overview
		t.Errorf("%d ConfigMaps, want 4", n)
	}
}
