package alertmanager_test

import (
	"slices"
	"testing"

	"github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/spec"
)

// Loki's ruler fires the alerts on fatal lines with their Prometheus
// versions' labels (internal/generate/loki's TestAlertsAreThePrometheusVersions
// holds its rules to that: the alert's labels, service_name, and the
// pod's under the count's names), so a service whose logs only Loki
// reads gets the dead engine's inhibition too: pod 0's dead engine mutes
// its own CUDA OOM, not pod 1's.
func TestLokisDeadEngineMutesItsPodsCause(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "loki.cue", Data: []byte(`package slo
services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: availability: objective: 99, loki: {}}
`)})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := build(t, res.Spec.Services)
	lines := gpualerts.LineAlerts(res.Spec.Services[0])
	fired := func(name, pod string) model.LabelSet {
		i := slices.IndexFunc(lines, func(a gpualerts.LineAlert) bool { return a.Name == name })
		if i < 0 {
			t.Fatalf("no alert %s on a line", name)
		}
		return alert(name, lines[i].Labels, "service_name", "chat", "k8s_namespace_name", "ml", "k8s_pod_name", pod)
	}
	var got []string
	for _, a := range survivors(cfg.InhibitRules, []model.LabelSet{
		fired(gpualerts.VLLMEngineDead, "chat-0"), fired(gpualerts.CUDAOutOfMemory, "chat-0"), fired(gpualerts.CUDAOutOfMemory, "chat-1"),
	}) {
		got = append(got, string(a[model.AlertNameLabel])+"/"+string(a["k8s_pod_name"]))
	}
	slices.Sort(got)
	if want := []string{gpualerts.CUDAOutOfMemory + "/chat-1", gpualerts.VLLMEngineDead + "/chat-0"}; !slices.Equal(got, want) {
		t.Errorf("notified %v, want %v", got, want)
	}
}
