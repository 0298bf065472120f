package alertmanager_test

import (
	"slices"
	"testing"

	"github.com/prometheus/common/model"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/generate/loki"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/spec"
)

// Loki's ruler fires the alerts on fatal lines with their Prometheus
// versions' labels, so a service whose logs only Loki reads gets the dead
// engine's inhibition too: pod 0's dead engine mutes its own CUDA OOM,
// not pod 1's.
func TestLokisDeadEngineMutesItsPodsCause(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "loki.cue", Data: []byte(`package slo
services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: availability: objective: 99, loki: {}}
`)})
	if err != nil {
		t.Fatal(err)
	}
	cfg, _ := build(t, res.Spec.Services)
	data, err := loki.Build(res.Spec.Services)
	if err != nil {
		t.Fatal(err)
	}
	var f loki.RuleFile
	if err := yaml.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	fired := func(name, pod string) model.LabelSet {
		i := slices.IndexFunc(f.Groups[0].Rules, func(r loki.Rule) bool { return r.Alert == name })
		if i < 0 {
			t.Fatalf("no Loki rule %s", name)
		}
		return alert(name, f.Groups[0].Rules[i].Labels, "k8s_namespace_name", "ml", "k8s_pod_name", pod)
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
