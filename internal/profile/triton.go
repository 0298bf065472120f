package profile

import "github.com/slogen-dev/slogen/internal/model"

// Triton counts successes and failures separately; its only latency
// histogram is time to first response, in milliseconds, and it is off
// unless --metrics-config histogram_latencies=true.
var triton = Profile{
	Runtime:     "triton",
	Title:       "Triton",
	ModelLabel:  "model",
	ModelLabels: []string{"version"},
	Port:        8002,
	Path:        "/metrics",
	Serving:     tritonServing,
	Availability: &Events{
		Total: []Selector{
			{Name: "nv_inference_request_success", HasModel: true},
			{Name: "nv_inference_request_failure", HasModel: true},
		},
		Failed: []Selector{{Name: "nv_inference_request_failure", HasModel: true}},
		Inputs: []Input{
			{Name: "nv_inference_request_success", Labels: map[string]string{"version": "1"}, HasModel: true, Good: 1},
			{Name: "nv_inference_request_failure", Labels: map[string]string{"version": "1", "reason": "BACKEND"}, HasModel: true, Bad: 1},
		},
	},
	TTFT: &Histogram{Name: "nv_inference_first_response_histogram_ms", Unit: 0.001, Buckets: []float64{100, 500, 2000, 5000}, Format: GoFormat, HasModel: true,
		Note: "Triton writes nv_inference_first_response_histogram_ms only with --metrics-config histogram_latencies=true (r24.11 and later)"},
	Unsupported: map[model.Kind]string{
		model.Latency: "Triton exports no end-to-end latency histogram (nv_inference_request_duration_us is a cumulative counter); use a ttft SLO on nv_inference_first_response_histogram_ms, or a ratio SLO",
		model.ITL:     "Triton exports no inter-token latency histogram; use a ttft SLO, or a ratio SLO",
		model.TPOT:    "Triton exports no time-per-output-token histogram; use a ttft SLO, or a ratio SLO",
		model.Queue:   "Triton's nv_inference_queue_duration_us is a cumulative counter, not a histogram; use a ratio SLO, or a ttft SLO, which includes the wait",
	},
	// The TensorRT-LLM backend's gauges carry the backend's model (the
	// tensorrt_llm of the usual ensemble), not the model clients call.
	ModelCase:     model.ModelCase{Other: []string{"nv_trt_llm_"}},
	NoPrefixCache: "runtime triton exports no prefix-cache hits (its nv_cache_* metrics count the response cache, which stores whole responses)",
	Advice: Advice{
		QueueLimits:   "the model's instance count and dynamic batching",
		KVCacheLimits: "the TensorRT-LLM model's `max_tokens_in_paged_kv_cache` and `kv_cache_free_gpu_mem_fraction`",
	},
}

// Running and KVCache are the TensorRT-LLM backend's gauges: a Triton
// without that backend has no such series, and what reads them shows
// nothing.
var tritonServing = model.Serving{
	Running:      model.Selector{Name: "nv_trt_llm_request_metrics", Matchers: matchers(eq("request_type", "active"))},
	KVCache:      model.Selector{Name: "nv_trt_llm_kv_cache_block_metrics", Matchers: matchers(eq("kv_cache_block_type", "fraction"))},
	Waiting:      model.Metric("nv_inference_pending_request_count"),
	Completed:    model.Metric("nv_inference_request_success"),
	Failures:     model.Metric("nv_inference_request_failure"),
	FailureClass: "reason",
	Aborts:       model.Selector{Name: "nv_inference_request_failure", Matchers: matchers(eq("reason", "CANCELED"))},
	GPUMemory:    model.Metric("nv_gpu_memory_used_bytes"),
}
