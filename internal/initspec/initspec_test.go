package initspec

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	pmodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/spec"
)

func TestObjectiveMetRoundsDown(t *testing.T) {
	tests := map[string]struct {
		met, ceiling, want float64
	}{
		"A share between two objectives gets the lower one.":         {0.99264, 99.99, 99},
		"A share exactly at an objective meets it.":                  {0.995, 99.99, 99.5},
		"A share just under an objective does not.":                  {0.99499, 99.99, 99},
		"Every request good still proposes no more than the ceiling": {1, 99.9, 99.9},
		"Under the lowest objective none is proposed.":               {0.94, 99.99, 0},
	}
	for name, c := range tests {
		if got := objectiveMet(c.met, c.ceiling); got != c.want {
			t.Errorf("%s objectiveMet(%v, %v) = %v, want %v", name, c.met, c.ceiling, got, c.want)
		}
	}
}

func TestThresholdIsWrittenAsTheSpecReadsIt(t *testing.T) {
	tests := map[string]struct {
		bound, unit float64
		want        string
		ok          bool
	}{
		"Seconds from one second up.":             {2.5, 1, "2.5s", true},
		"Milliseconds below.":                     {0.3, 1, "300ms", true},
		"Sixty seconds stay seconds, not 1m0s.":   {60, 1, "60s", true},
		"A histogram in milliseconds (Triton's).": {250, 0.001, "250ms", true},
		"A sub-millisecond bound.":                {0.0005, 1, "0.5ms", true},
		"Zero is no threshold.":                   {0, 1, "", false},
	}
	for name, c := range tests {
		got, ok := threshold(c.bound, c.unit)
		if got != c.want || ok != c.ok {
			t.Errorf("%s threshold(%v, %v) = %q, %v; want %q, %v", name, c.bound, c.unit, got, ok, c.want, c.ok)
		}
	}
}

func TestPickThresholdNeverFallsBetweenBuckets(t *testing.T) {
	vllm, _ := profile.ByRuntime("vllm")
	within := map[float64]float64{0.3: 0, 0.5: 900, 0.8: 985, 1: 995, 1.5: 999, 2: 1000, math.Inf(1): 1000}
	p := pickThreshold(Proposal{Requests: 1000}, vllm.Latency, within)
	if p.Threshold != "1s" || p.Objective != 99.5 {
		t.Errorf("proposed %s at %v, want 1s at 99.5 (99.5 %% held there)", p.Threshold, p.Objective)
	}
	slow := map[float64]float64{}
	for _, b := range vllm.Latency.Buckets {
		slow[b] = 900
	}
	if p := pickThreshold(Proposal{Requests: 1000}, vllm.Latency, slow); p.Objective != 0 || p.Threshold != "" || p.Skipped == "" {
		t.Errorf("a service that held 90 %% in every bucket got %+v, want none proposed and why", p)
	}
}

func TestRuntimeIsToldByFamiliesNoOtherRuntimeReads(t *testing.T) {
	who := readers()
	tests := map[string]struct {
		present []string
		want    string
	}{
		"http_requests_total alone, which vLLM reads among others, tells nothing.": {[]string{"http_requests_total"}, ""},
		"vLLM's TTFT histogram tells vLLM.":                                        {[]string{"http_requests_total", "vllm:time_to_first_token_seconds_bucket"}, "vllm"},
		"SGLang's counters tell SGLang.":                                           {[]string{"sglang:num_requests_total", "sglang:num_aborted_requests_total"}, "sglang"},
	}
	for name, c := range tests {
		present := map[string]bool{}
		for _, f := range c.present {
			present[f] = true
		}
		p, telling := runtimeOf(present, who)
		if got := p.Runtime; len(telling) == 0 && got != "" || got != c.want && len(telling) > 0 {
			t.Errorf("%s got %q (%v), want %q", name, got, telling, c.want)
		}
	}
}

func TestNamesAndPodPatterns(t *testing.T) {
	services := []Service{
		{Target: Target{Job: "vllm", Namespace: "a"}, Model: "org/Model-A"},
		{Target: Target{Job: "vllm", Namespace: "a"}, Model: "org/Model_B"},
		{Target: Target{Job: "VLLM", Namespace: "b"}},
		{Target: Target{Job: "vllm", Namespace: "c"}},
	}
	name(services)
	var got []string
	for _, s := range services {
		got = append(got, s.Name)
	}
	if want := []string{"vllm-model-a", "vllm-model-b", "vllm", "vllm-c"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("names %v, want %v", got, want)
	}
	for pods, want := range map[string]string{
		"chat-7d9f-abcde chat-7d9f-fghij": `chat-7d9f-.*`,
		"chat-0 chat-1":                   `chat-.*`,
		"a.b-0":                           `a\.b-.*`,
	} {
		if got := podPattern(strings.Fields(pods)); got != want {
			t.Errorf("podPattern(%s) = %s, want %s", pods, got, want)
		}
	}
}

// Every shape of service init writes loads without a warning: static
// scrapes and host mapping, an unknown GPU, pods named unlike the
// service, an older generation, and a kind with none proposed.
func TestWrittenSpecsLoadWithoutWarnings(t *testing.T) {
	tgi, _ := profile.ByRuntime("tgi")
	vllm, _ := profile.ByRuntime("vllm")
	dynamo100, err := profile.For("dynamo", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	services := []Service{
		{Name: "tgi", Profile: tgi, Target: Target{Job: "tgi"}, Families: []string{"tgi_request_count"}, Instances: []string{"10.0.0.5:3000"},
			GPUs: GPUs{Mapping: model.MappingHost, Hosts: []string{"10.0.0.5"}},
			SLOs: []Proposal{{Kind: model.Availability, Objective: 99.9, Days: 28, Requests: 1e6, Bad: 10, Met: 0.99999}}},
		{Name: "chat", Profile: vllm, Target: Target{Job: "chat", Namespace: "ml"}, Model: "m", Families: []string{"vllm:time_to_first_token_seconds_bucket"},
			Pods:    []string{"llama-7d9f-abcde", "llama-7d9f-fghij"},
			GPUs:    GPUs{Mapping: model.MappingPod, Count: 2, Job: "gpus", Products: []string{"NVIDIA Future GPU"}},
			Buckets: map[model.Kind][]float64{model.TTFT: {0.1, 0.5, 1}},
			SLOs: []Proposal{
				{Kind: model.TTFT, Objective: 99, Threshold: "500ms", Days: 3, Requests: 1000, Met: 0.995, Within: []Share{{"100ms", 0.9}, {"500ms", 0.995}}},
				{Kind: model.Latency, Days: 3, Requests: 1000, Met: 0.9, Skipped: "only 90 % of requests were within its largest boundary"},
			}},
		{Name: "frontend", Profile: dynamo100, Target: Target{Job: "frontend", Namespace: "ml"}, Families: []string{"dynamo_frontend_requests_total"},
			GPUs: GPUs{Mapping: model.MappingPod},
			SLOs: []Proposal{{Kind: model.Availability, Objective: 99, Days: 28, Requests: 1e6, Bad: 10, Met: 0.99999}}},
		{Name: "quiet", Profile: vllm, Target: Target{Job: "quiet", Namespace: "ml"}, Families: []string{"vllm:time_to_first_token_seconds_bucket"}},
	}
	out, res := writeAndLoad(t, services)
	for _, w := range res.Warnings {
		t.Errorf("warning: %s", w)
	}
	for _, want := range []string{`version: "1.0.0"`, `dcgm: {job: "gpus", pod: "llama-7d9f-.*"}`, `"NVIDIA Future GPU" is not in slogen's GPU catalog`,
		`dcgm: {mapping: "host", hosts: ["10.0.0.5"]}`, `scrape: {mode: "static", runtime: targets: ["10.0.0.5:3000"]}`, "// latency: none proposed.", `// Left out: vLLM in job "quiet"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the spec lacks %s:\n%s", want, out)
		}
	}
	if t.Failed() {
		t.Logf("%s", out)
	}
}

// Label values reach the spec as CUE strings: none ends a comment or
// writes CUE of its own, and each loads back as it was.
func TestLabelValuesAreEscaped(t *testing.T) {
	vllm, _ := profile.ByRuntime("vllm")
	odd := "m\"}\n// x \\( y"
	services := []Service{{Name: "chat", Profile: vllm, Target: Target{Job: odd, Namespace: "ml"}, Model: odd,
		Families: []string{"vllm:time_to_first_token_seconds_bucket"}, Pods: []string{"chat-0"},
		GPUs: GPUs{Mapping: model.MappingPod, Count: 1, Job: odd, Products: []string{odd}},
		SLOs: []Proposal{{Kind: model.Availability, Objective: 99, Days: 1, Requests: 100, Met: 1}}}}
	out, res := writeAndLoad(t, services)
	svc := res.Spec.Services[0]
	if svc.Model != odd || svc.DCGM.Job != odd {
		t.Errorf("model %q, dcgm job %q; want %q\n%s", svc.Model, svc.DCGM.Job, odd, out)
	}
}

// Dynamo 1.0.0 and 1.1.0 read the same families; the server's boundaries
// tell them apart.
func TestBucketsPickTheGeneration(t *testing.T) {
	newest, _ := profile.ByRuntime("dynamo")
	older, err := profile.For("dynamo", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	les := map[model.Kind][]float64{model.Latency: older.Latency.Buckets}
	if got := generationOf(newest, les); got.Since != older.Since {
		t.Errorf("the 1.0.0 request-duration buckets picked %s", got.Since)
	}
	les[model.Latency] = newest.Latency.Buckets
	if got := generationOf(newest, les); got.Since != newest.Since {
		t.Errorf("the newest buckets picked %s", got.Since)
	}
}

// writeAndLoad writes the services' spec and loads it as build would.
func writeAndLoad(t *testing.T, services []Service) ([]byte, spec.Result) {
	t.Helper()
	out, err := Write("http://prometheus:9090", time.Unix(0, 0), services)
	if err != nil {
		t.Fatal(err)
	}
	res, err := spec.LoadSources(spec.Source{Name: "init.cue", Data: out})
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return out, res
}

func TestGPUsBehindAService(t *testing.T) {
	set := gpuSet{
		gpuOf(pmodel.Metric{"job": "dcgm", "instance": "n1:9400", "UUID": "GPU-a", "modelName": "NVIDIA L4", "Hostname": "n1", "exported_pod": "chat-0", "exported_namespace": "ml"}),
		// The same GPU scraped twice (two dcgm-exporter jobs) counts once.
		gpuOf(pmodel.Metric{"job": "dcgm", "instance": "n1:9400", "UUID": "GPU-a", "modelName": "NVIDIA L4", "Hostname": "n1", "exported_pod": "chat-0", "exported_namespace": "ml"}),
		gpuOf(pmodel.Metric{"job": "dcgm", "instance": "n2:9400", "UUID": "GPU-b", "modelName": "NVIDIA L4", "Hostname": "n2", "exported_pod": "chat-1", "exported_namespace": "ml"}),
		// Another namespace's pod of the same name is not this service's.
		gpuOf(pmodel.Metric{"job": "dcgm", "instance": "n3:9400", "UUID": "GPU-c", "modelName": "NVIDIA L4", "Hostname": "n3", "exported_pod": "chat-0", "exported_namespace": "other"}),
		// Under honor_labels the pod label keeps its name; after PR 655 the host label is hostname.
		gpuOf(pmodel.Metric{"job": "dcgm", "instance": "10.0.0.5:9400", "gpu": "0", "modelName": "NVIDIA L40S", "hostname": "10.0.0.5", "pod": "batch-0", "namespace": "jobs"}),
	}
	pods := set.behind(Service{Target: Target{Job: "chat", Namespace: "ml"}, Pods: []string{"chat-0", "chat-1"}})
	if pods.Count != 2 || pods.Mapping != model.MappingPod || fmt.Sprint(pods.Products) != "[NVIDIA L4]" || pods.HonorLabels {
		t.Errorf("pod mapping: %+v", pods)
	}
	honored := set.behind(Service{Target: Target{Job: "batch", Namespace: "jobs"}, Pods: []string{"batch-0"}})
	if honored.Count != 1 || !honored.HonorLabels {
		t.Errorf("honor_labels: %+v", honored)
	}
	hosts := set.behind(Service{Target: Target{Job: "static"}, Instances: []string{"10.0.0.5:8000"}})
	if hosts.Count != 1 || hosts.Mapping != model.MappingHost || !hosts.LowerHostname || fmt.Sprint(hosts.Hosts) != "[10.0.0.5]" || fmt.Sprint(hosts.Instances) != "[10.0.0.5:9400]" {
		t.Errorf("host mapping: %+v", hosts)
	}
}
