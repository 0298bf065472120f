package profile

import "github.com/slogen-dev/slogen/internal/model"

// NIM for LLMs 1.x exports vLLM's metric names without the vllm: prefix,
// on /v1/metrics, and counts failed requests itself: request_success_total
// counts the finish reasons stop and length, request_failure_total every
// other. Its histograms have vLLM 0.5's buckets in both scrapes read
// (docs/metrics.md), whichever vLLM the image carried.
var nim = Profile{
	Runtime:    "nim",
	Title:      "NIM for LLMs",
	Since:      "1.0.0",
	Note:       "slogen reads the metric names of NIM for LLMs 1.x (vLLM's without the vllm: prefix, on /v1/metrics); a NIM whose /v1/metrics shows vllm:-prefixed names is served with runtime \"vllm\" and scrape.runtime.path \"/v1/metrics\"",
	ModelLabel: "model_name",
	Port:       8000,
	Path:       "/v1/metrics",
	Serving:    nimServing,
	Availability: &Events{
		Total: []Selector{
			{Name: "request_success_total", HasModel: true},
			{Name: "request_failure_total", HasModel: true},
		},
		Failed: []Selector{{Name: "request_failure_total", HasModel: true}},
		Inputs: []Input{
			{Name: "request_success_total", HasModel: true, Good: 1},
			{Name: "request_failure_total", HasModel: true, Bad: 1},
		},
	},
	Latency: &Histogram{Name: "e2e_request_latency_seconds", Unit: 1, Buckets: nimLatencyBuckets, Format: PythonFormat, HasModel: true},
	TTFT:    &Histogram{Name: "time_to_first_token_seconds", Unit: 1, Buckets: nimTTFTBuckets, Format: PythonFormat, HasModel: true},
	ITL: &Histogram{Name: "time_per_output_token_seconds", Unit: 1, Buckets: nimITLBuckets, Format: PythonFormat, HasModel: true,
		Note: "NIM's time_per_output_token_seconds observes every gap between tokens (vLLM 0.5's meaning of the name), so it serves itl, not tpot"},
	Unsupported: map[model.Kind]string{
		model.TPOT:  "NIM's time_per_output_token_seconds observes every gap between tokens, not each request's mean; use an itl SLO on it",
		model.Queue: "NIM exports no queue-time histogram; use a ttft SLO on time_to_first_token_seconds, which includes the wait, and the dashboard's num_requests_waiting",
	},
	Preallocation: "gpu_memory_utilization (0.9 in the vllm:cache_config_info a vLLM-backed NIM exports)",
	Advice: Advice{
		MetricsGone:   "NIM serves its metrics on `/v1/metrics`, not\n`/metrics`.",
		KVCacheLimits: "`NIM_MAX_MODEL_LEN`",
		Reservation: "A vLLM-backed NIM reserves gpu_memory_utilization (0.9) of each GPU\n" +
			"when it starts: a steady value near it is that reservation, not a\n" +
			"problem. Raise `thresholds.vram_percent` above it.",
	},
}

var nimServing = model.Serving{
	Running:          model.Metric("num_requests_running"),
	Waiting:          model.Metric("num_requests_waiting"),
	KVCache:          model.Metric("gpu_cache_usage_perc"),
	PromptTokens:     model.Metric("prompt_tokens_total"),
	GenerationTokens: model.Metric("generation_tokens_total"),
	Completed:        model.Metric("request_success_total"),
	Failures:         model.Metric("request_failure_total"),
	PromptLength:     "request_prompt_tokens",
	BatchSize:        model.Metric("num_requests_running"),
	BatchMax:         model.Metric("num_request_max"),
}

// NIM's buckets, as two scrapes of NIM for LLMs 1.x show them (docs/metrics.md).
var (
	nimLatencyBuckets = []float64{1, 2.5, 5, 10, 15, 20, 30, 40, 50, 60}
	nimTTFTBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
	nimITLBuckets     = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5}
)
