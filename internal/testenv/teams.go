package testenv

import "fmt"

// The fleet as teams run one (issue 22): ten teams, vLLM and SGLang, real
// Hugging Face model names, three objective tiers and four GPU products,
// each service with its own namespace and a job that holds its name.
// TeamsFleet writes it in CUE and SlothTeamsFleet the same SLOs for
// Sloth, both from these tables, so the two cannot drift apart.

var fleetTeams = []string{"chat", "search", "code", "agents", "summarize", "translate", "moderation", "rag", "voice", "ads"}

type fleetModel struct {
	key, name string
	gpus      int
}

var fleetModels = []fleetModel{
	{"llama-70b", "meta-llama/Llama-3.1-70B-Instruct", 4},
	{"llama-8b", "meta-llama/Llama-3.1-8B-Instruct", 1},
	{"qwen-72b", "Qwen/Qwen2.5-72B-Instruct", 4},
	{"qwen-7b", "Qwen/Qwen2.5-7B-Instruct", 1},
	{"mistral-7b", "mistralai/Mistral-7B-Instruct-v0.3", 1},
	{"mixtral-8x7b", "mistralai/Mixtral-8x7B-Instruct-v0.1", 2},
	{"gemma-27b", "google/gemma-2-27b-it", 2},
	{"r1-qwen-32b", "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", 2},
}

// dcgm-exporter's modelName strings, as internal/gpu's catalog has them.
var fleetGPUs = []string{"NVIDIA H100 80GB HBM3", "NVIDIA H200", "NVIDIA A100-SXM4-80GB", "NVIDIA L40S"}

// A tier's objectives, in percent. The lowest, 95, still lets every burn
// tier fire (page_fast's burn rate 14.4 is 72 % errors); at 90 vet warns
// that it could not.
type fleetTier struct {
	name                        string
	availability, ttft, latency float64
}

var fleetTiers = []fleetTier{
	{"gold", 99.9, 99, 99},
	{"silver", 99.5, 98, 98},
	{"bronze", 99, 95, 95},
}

// A runtime's template: its thresholds in seconds, each one of the
// runtime's histogram bounds (docs/metrics.md), and the series its SLIs
// read, as slogen's profiles (internal/profile) read them.
type fleetRuntime struct {
	name                  string
	ttft, latency         float64
	requests, failed      string
	availabilityHasModel  bool
	ttftSeries, e2eSeries string
}

var fleetRuntimes = []fleetRuntime{
	{name: "vllm", ttft: 1, latency: 20,
		requests: `http_requests_total{%s}`, failed: `http_requests_total{%s,status="5xx"}`,
		ttftSeries: "vllm:time_to_first_token_seconds", e2eSeries: "vllm:e2e_request_latency_seconds"},
	{name: "sglang", ttft: 2, latency: 20,
		requests: `sglang:num_requests_total{%s}`, failed: `sglang:num_aborted_requests_total{%s}`, availabilityHasModel: true,
		ttftSeries: "sglang:time_to_first_token_seconds", e2eSeries: "sglang:e2e_request_latency_seconds"},
}

// teamService is one service's row: plain data, as a team writes it.
type teamService struct {
	name    string
	team    string
	runtime fleetRuntime
	model   fleetModel
	tier    fleetTier
	gpu     string
}

// teamServices lays out n services. Each property cycles on its own
// period (teams 10, models 8, tiers 3, GPUs 4, runtimes every 10
// services), so every team runs both runtimes and several models, tiers
// and GPUs. A (team, model) pair recurs every 40 services, which the
// name's last part counts.
func teamServices(n int) []teamService {
	services := make([]teamService, n)
	for i := range services {
		team, model := fleetTeams[i%len(fleetTeams)], fleetModels[i%len(fleetModels)]
		services[i] = teamService{
			name:    fmt.Sprintf("%s-%s-%d", team, model.key, i/40),
			team:    team,
			runtime: fleetRuntimes[i/10%len(fleetRuntimes)],
			model:   model,
			tier:    fleetTiers[i%len(fleetTiers)],
			gpu:     fleetGPUs[i%len(fleetGPUs)],
		}
	}
	return services
}

// job is the scrape job of a service, named after its runtime and itself.
func (s teamService) job() string { return s.runtime.name + "-" + s.name }
