package profile

import "github.com/slogen-dev/slogen/internal/model"

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

// TGI reports token counts only as histogram sums.
var tgiServing = model.Serving{
	Running:          model.Metric("tgi_batch_current_size"),
	Waiting:          model.Metric("tgi_queue_size"),
	PromptTokens:     model.Metric("tgi_request_input_length_sum"),
	GenerationTokens: model.Metric("tgi_request_generated_tokens_sum"),
	Completed:        model.Metric("tgi_request_success"),
	Failures:         model.Metric("tgi_request_failure"),
	FailureClass:     "err",
	PromptLength:     "tgi_request_input_length",
	QueueTime:        "tgi_request_queue_duration",
	BatchSize:        model.Metric("tgi_batch_current_max_tokens"),
	BatchMax:         model.Metric("tgi_batch_max_total_tokens"),
}

var tritonServing = model.Serving{
	Waiting:      model.Metric("nv_inference_pending_request_count"),
	Completed:    model.Metric("nv_inference_request_success"),
	Failures:     model.Metric("nv_inference_request_failure"),
	FailureClass: "reason",
	Aborts:       model.Selector{Name: "nv_inference_request_failure", Matchers: matchers(eq("reason", "CANCELED"))},
	GPUMemory:    model.Metric("nv_gpu_memory_used_bytes"),
}

var sglangServing = model.Serving{
	Running:             model.Metric("sglang:num_running_reqs"),
	Waiting:             model.Metric("sglang:num_queue_reqs"),
	KVCache:             model.Metric("sglang:token_usage"),
	PromptTokens:        model.Metric("sglang:prompt_tokens_total"),
	GenerationTokens:    model.Metric("sglang:generation_tokens_total"),
	Completed:           model.Metric("sglang:num_requests_total"),
	Preemptions:         model.Metric("sglang:num_retracted_reqs"),
	PrefixCacheHitRatio: model.Metric("sglang:cache_hit_rate"),
	Aborts:              model.Metric("sglang:num_aborted_requests_total"),
	Failures:            model.Metric("sglang:num_aborted_requests_total"),
	PromptLength:        "sglang:prompt_tokens_histogram",
	QueueTime:           "sglang:queue_time_seconds",
}
