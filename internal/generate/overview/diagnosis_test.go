package overview

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
)

// sevenServices are seven services of one team, svc-1 to svc-7.
func sevenServices(t *testing.T) []model.Service {
	t.Helper()
	cue := "package slo\n"
	for i := 1; i <= 7; i++ {
		cue += fmt.Sprintf("services: \"svc-%d\": {team: \"t\", runtime: \"vllm\", selector: {job: \"svc-%d\"}, slos: availability: objective: 99.5}\n", i, i)
	}
	return load(t, "seven.cue", cue)
}

// TestDiagnosisShowsTheFiveServicesWithTheLeastBudget: of seven services,
// the diagnosis panels show the five with the least budget left in any
// SLO, each signal as the recordings say, and their firing alerts only.
func TestDiagnosisShowsTheFiveServicesWithTheLeastBudget(t *testing.T) {
	svcs := sevenServices(t)
	data := map[string]float64{}
	for i := 1; i <= 7; i++ {
		s := fmt.Sprintf(`service="svc-%d"`, i)
		data[`slogen:service_info{team="t",runtime="vllm",job="svc-`+fmt.Sprint(i)+`",`+s+`}`] = 1
		// svc-7 has the least budget left, svc-1 the most
		data[`slogen:slo_error_budget_remaining:ratio{slo="availability",`+s+`}`] = 1 - float64(i)/10
		data[`slogen:gpu_memory_used:ratio{gpu="0",`+s+`}`] = 0.5
		data[`slogen:gpu_memory_used:ratio{gpu="1",`+s+`}`] = float64(i) / 10
		data[`slogen:diag_latency:mean1h{`+s+`}`] = float64(i)
		data[`slogen:diag_latency:mean1h_1d_ago{`+s+`}`] = 2
		data[`ALERTS{alertname="InferenceSaturated",alertstate="firing",severity="warning",`+s+`}`] = 1
	}
	d := build(t, svcs)
	r := store(t, data)
	vars := grafanatest.AllPicked(d)
	worst := []string{"svc-3", "svc-4", "svc-5", "svc-6", "svc-7"}
	for title, want := range map[string]func(i int) float64{
		"GPU memory in use, fullest GPU":  func(i int) float64 { return max(0.5, float64(i)/10) },
		"Mean latency against yesterday":  func(i int) float64 { return float64(i) / 2 },
		"Firing alerts of these services": func(int) float64 { return 1 },
	} {
		got := map[string]float64{}
		for _, s := range query(t, r, panelQueries(t, d, title)[0].Expr, vars) {
			got[s.Metric.Get("service")] = s.F
		}
		if !slices.Equal(slices.Sorted(maps.Keys(got)), worst) {
			t.Errorf("%s shows %v, want the five with the least budget, %v", title, got, worst)
		}
		for svc, v := range got {
			var i int
			fmt.Sscanf(svc, "svc-%d", &i)
			if !near(v, want(i)) {
				t.Errorf("%s: %s at %v, want %v", title, svc, v, want(i))
			}
		}
	}
}

// TestGPUUtilisationIsTheMeanOfEachServicesGPUs: a pod-mapped service's
// utilisation is the mean of its GPUs, a GPU two exporters report counted
// once, and a host-mapped service's that of its host's GPU; a GPU no
// service claims counts for none.
func TestGPUUtilisationIsTheMeanOfEachServicesGPUs(t *testing.T) {
	svcs := load(t, "gpus.cue", `package slo
services: a: {runtime: "vllm", selector: {namespace: "ns", job: "a"}, slos: availability: objective: 99.5}
services: c: {
	runtime: "vllm", selector: {job: "c"}
	dcgm: {mapping: "host", hosts: ["h2"]}
	scrape: {mode: "static", runtime: targets: ["h2:8000"], dcgm: targets: ["h2:9400"]}
	slos: availability: objective: 99.5
}
`)
	data := map[string]float64{
		`slogen:service_info{service="a",team="t",runtime="vllm"}`:                                           1,
		`slogen:service_info{service="c",team="t",runtime="vllm"}`:                                           1,
		`slogen:slo_error_budget_remaining:ratio{service="a",slo="availability"}`:                            0.5,
		`slogen:slo_error_budget_remaining:ratio{service="c",slo="availability"}`:                            0.5,
		`slogen:gpu_memory_used:ratio{service="a",exported_namespace="ns",exported_pod="a-1",gpu="0"}`:       0.5,
		`slogen:gpu_memory_used:ratio{service="a",exported_namespace="ns",exported_pod="a-1",gpu="1"}`:       0.5,
		`slogen:gpu_memory_used:ratio{service="c",Hostname="h2",gpu="0"}`:                                    0.5,
		`DCGM_FI_DEV_GPU_UTIL{job="dcgm",Hostname="h1",exported_namespace="ns",exported_pod="a-1",gpu="0"}`:  80,
		`DCGM_FI_DEV_GPU_UTIL{job="dcgm2",Hostname="h1",exported_namespace="ns",exported_pod="a-1",gpu="0"}`: 80,
		`DCGM_FI_DEV_GPU_UTIL{job="dcgm",Hostname="h1",exported_namespace="ns",exported_pod="a-1",gpu="1"}`:  40,
		`DCGM_FI_DEV_GPU_UTIL{job="dcgm",Hostname="h1",gpu="3"}`:                                             99,
		`DCGM_FI_DEV_GPU_UTIL{job="dcgm",Hostname="h2",gpu="0"}`:                                             30,
	}
	d := build(t, svcs)
	got := map[string]float64{}
	for _, s := range query(t, store(t, data), panelQueries(t, d, "GPU utilisation, mean of the service's GPUs")[0].Expr, grafanatest.AllPicked(d)) {
		got[s.Metric.Get("service")] = s.F
	}
	if want := map[string]float64{"a": 60, "c": 30}; !maps.Equal(got, want) {
		t.Errorf("utilisation %v, want %v", got, want)
	}
}
