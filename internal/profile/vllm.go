package profile

import "github.com/slogen-dev/slogen/internal/model"

// vLLM V1 (≈0.8–0.12). It has no failure counter up to at least 0.12; the
// HTTP middleware's 5xx responses are the failure signal every version has,
// and those metrics carry no model_name label.
var vllm = Profile{
	Runtime:    "vllm",
	Title:      "vLLM",
	Since:      "0.8.0",
	Note:       "slogen reads the metric names of vLLM's V1 engine, the default from vLLM 0.8 on; older versions, and V0 (VLLM_USE_V1=0), lack some; PrefixCacheColdStart reads vllm:prefix_cache_hits_total and _queries_total, which replaced the gpu_prefix_cache_* names deprecated in 0.9",
	ModelLabel: "model_name",
	Port:       8000,
	Path:       "/metrics",
	Serving:    vllmServing,
	Availability: &Events{
		Total:  []Selector{{Name: "http_requests_total"}},
		Failed: []Selector{{Name: "http_requests_total", Matchers: matchers(eq("status", "5xx"))}},
		Inputs: []Input{
			{Name: "http_requests_total", Labels: map[string]string{"handler": "/v1/chat/completions", "method": "POST", "status": "2xx"}, Good: 1},
			{Name: "http_requests_total", Labels: map[string]string{"handler": "/v1/chat/completions", "method": "POST", "status": "5xx"}, Bad: 1},
		},
	},
	Latency: &Histogram{Name: "vllm:e2e_request_latency_seconds", Unit: 1, Buckets: vllmLatencyBuckets, Format: PythonFormat, HasModel: true},
	TTFT:    &Histogram{Name: "vllm:time_to_first_token_seconds", Unit: 1, Buckets: vllmTTFTBuckets, Format: PythonFormat, HasModel: true},
	ITL: &Histogram{Name: "vllm:inter_token_latency_seconds", Unit: 1, Buckets: vllmITLBuckets, Format: PythonFormat, HasModel: true,
		Note: "vllm:inter_token_latency_seconds exists from vLLM 0.11; older versions export vllm:time_per_output_token_seconds"},
	TPOT: &Histogram{Name: "vllm:request_time_per_output_token_seconds", Unit: 1, Buckets: vllmITLBuckets, Format: PythonFormat, HasModel: true,
		Note: "vllm:request_time_per_output_token_seconds (each request's mean time per output token) exists from vLLM 0.11"},
	Queue:         &Histogram{Name: "vllm:request_queue_time_seconds", Unit: 1, Buckets: vllmLatencyBuckets, Format: PythonFormat, HasModel: true},
	Preallocation: "--gpu-memory-utilization (0.9 by default)",
	Advice: Advice{
		MetricsGone:    "vLLM renames and removes metrics across\nreleases.",
		LazyCounter:    "http_requests_total",
		QueueLimits:    "`--max-num-seqs`",
		KVCacheLimits:  "`--max-num-seqs`, `--max-model-len`",
		PrefixCacheOff: "`--no-enable-prefix-caching`",
		Reservation: "vLLM reserves `--gpu-memory-utilization` (0.9 by default) of each GPU\n" +
			"when it starts: a steady value near it is that reservation, not a\n" +
			"problem. Raise `thresholds.vram_percent` above it.",
	},
}

var vllmServing = model.Serving{
	Running:          model.Metric("vllm:num_requests_running"),
	Waiting:          model.Metric("vllm:num_requests_waiting"),
	KVCache:          model.Metric("vllm:kv_cache_usage_perc"),
	PromptTokens:     model.Metric("vllm:prompt_tokens_total"),
	GenerationTokens: model.Metric("vllm:generation_tokens_total"),
	Completed:        model.Metric("vllm:request_success_total"),
	Preemptions:      model.Metric("vllm:num_preemptions_total"),
	// In tokens. They replaced gpu_prefix_cache_* (blocks at about 0.8,
	// tokens at 0.10), deprecated in 0.9 and gone by 0.12.
	PrefixCacheHits:    model.Metric("vllm:prefix_cache_hits_total"),
	PrefixCacheQueries: model.Metric("vllm:prefix_cache_queries_total"),
	Aborts:             model.Selector{Name: "vllm:request_success_total", Matchers: matchers(eq("finished_reason", "abort"))},
	Failures:           model.Metric("http_requests_total"),
	FailureClass:       "status",
	PromptLength:       "vllm:request_prompt_tokens",
	QueueTime:          "vllm:request_queue_time_seconds",
}

// vLLM V1 buckets (identical in ≈0.8, ≈0.10 and ≈0.12).
var (
	vllmLatencyBuckets = []float64{0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680}
	vllmTTFTBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560}
	vllmITLBuckets     = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80}
)
