package profile

import "github.com/slogen-dev/slogen/internal/model"

// TensorRT-LLM's trtllm-serve, read at NVIDIA/TensorRT-LLM
// tensorrt_llm/metrics/collector.py on main at 050f80d. Its Prometheus
// metrics are prometheus_client's in multiprocess mode, on
// /prometheus/metrics: /metrics is a JSON list of iteration stats.
// Finished requests are counted by finish reason and error responses by
// HTTP code, so the two counters add up to every request.
var trtllm = Profile{
	Runtime:    "trtllm",
	Title:      "TensorRT-LLM",
	Since:      "1.3.0",
	Note:       "slogen reads trtllm-serve's trtllm_* metrics (checked at TensorRT-LLM 1.3.0 on main, 050f80d): it exports them only with return_perf_metrics: true in --extra_llm_api_options, on /prometheus/metrics (its /metrics is JSON), and the gauges of the engine panel only with enable_iter_perf_stats: true as well",
	ModelLabel: "model_name",
	Port:       8000,
	Path:       "/prometheus/metrics",
	Serving:    trtllmServing,
	Availability: &Events{
		Total: []Selector{
			{Name: "trtllm_request_success_total", HasModel: true},
			{Name: "trtllm_request_error_total", HasModel: true},
		},
		Failed: []Selector{{Name: "trtllm_request_error_total", HasModel: true}},
		Inputs: []Input{
			{Name: "trtllm_request_success_total", Labels: map[string]string{"engine_type": "pytorch", "finished_reason": "stop"}, HasModel: true, Good: 1},
			{Name: "trtllm_request_error_total", Labels: map[string]string{"engine_type": "pytorch", "http_code": "500"}, HasModel: true, Bad: 1},
		},
	},
	Latency: &Histogram{Name: "trtllm_e2e_request_latency_seconds", Unit: 1, Buckets: trtllmLatencyBuckets, Format: PythonFormat, HasModel: true},
	TTFT:    &Histogram{Name: "trtllm_time_to_first_token_seconds", Unit: 1, Buckets: trtllmTTFTBuckets, Format: PythonFormat, HasModel: true},
	TPOT:    &Histogram{Name: "trtllm_time_per_output_token_seconds", Unit: 1, Buckets: trtllmTPOTBuckets, Format: PythonFormat, HasModel: true},
	Queue: &Histogram{Name: "trtllm_request_queue_time_seconds", Unit: 1, Buckets: trtllmLatencyBuckets, Format: PythonFormat, HasModel: true,
		Note: "trtllm_request_queue_time_seconds starts at 0.3 s: a queue SLO cannot ask for less"},
	Unsupported: map[model.Kind]string{
		model.ITL: "trtllm-serve exports no inter-token latency histogram (trtllm_time_per_output_token_seconds observes each request's mean gap once); use a tpot SLO on it",
	},
	Preallocation: "kv_cache_config.free_gpu_memory_fraction (0.9 by default, of the memory the weights leave)",
	Advice: Advice{
		MetricsGone: "trtllm-serve exports its metrics only with\n`return_perf_metrics: true` in `--extra_llm_api_options`, on\n`/prometheus/metrics`.",
		LazyCounter: "trtllm_request_success_total",
		QueueLimits: "`max_batch_size`, `max_num_tokens`",
		KVCacheLimits: "`max_batch_size`, `max_seq_len`, " +
			"`kv_cache_config.free_gpu_memory_fraction`",
		PrefixCacheOff: "`kv_cache_config.enable_block_reuse: false`",
		Reservation: "TensorRT-LLM gives the KV cache `kv_cache_config.free_gpu_memory_fraction`\n" +
			"(0.9 by default) of the memory left after loading the weights: a steady\n" +
			"value near the whole GPU is that reservation, not a problem. Raise\n" +
			"`thresholds.vram_percent` above it.",
	},
}

// The gauges come from the iteration stats, with a pid label
// (multiprocess mode); the token counters count per finished request.
var trtllmServing = model.Serving{
	Running:            model.Metric("trtllm_num_requests_running"),
	Waiting:            model.Metric("trtllm_num_requests_waiting"),
	KVCache:            model.Metric("trtllm_kv_cache_utilization"),
	PromptTokens:       model.Metric("trtllm_prompt_tokens_total"),
	GenerationTokens:   model.Metric("trtllm_generation_tokens_total"),
	Completed:          model.Metric("trtllm_request_success_total"),
	PrefixCacheHits:    model.Metric("trtllm_prompt_cached_tokens_total"),
	PrefixCacheQueries: model.Metric("trtllm_prompt_tokens_total"),
	Failures:           model.Metric("trtllm_request_error_total"),
	FailureClass:       "http_code",
	QueueTime:          "trtllm_request_queue_time_seconds",
	GPUMemory:          model.Metric("trtllm_gpu_memory_usage_bytes"),
}

// TensorRT-LLM's default buckets, which it took from vLLM; a constructor
// argument can replace them, trtllm-serve passes none.
var (
	trtllmLatencyBuckets = []float64{0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680}
	trtllmTTFTBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560}
	trtllmTPOTBuckets    = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80}
)
