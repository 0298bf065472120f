package profile

import "github.com/slogen-dev/slogen/internal/model"

var vllmServing = model.Serving{
	Running:          "vllm:num_requests_running",
	Waiting:          "vllm:num_requests_waiting",
	KVCache:          "vllm:kv_cache_usage_perc",
	PromptTokens:     "vllm:prompt_tokens_total",
	GenerationTokens: "vllm:generation_tokens_total",
	Completed:        "vllm:request_success_total",
	Preemptions:      "vllm:num_preemptions_total",
	Aborts:           `vllm:request_success_total{finished_reason="abort"}`,
	Failures:         "http_requests_total",
	FailureClass:     "status",
	PromptLength:     "vllm:request_prompt_tokens",
	QueueTime:        "vllm:request_queue_time_seconds",
}

// TGI reports token counts only as histogram sums.
var tgiServing = model.Serving{
	Running:          "tgi_batch_current_size",
	Waiting:          "tgi_queue_size",
	PromptTokens:     "tgi_request_input_length_sum",
	GenerationTokens: "tgi_request_generated_tokens_sum",
	Completed:        "tgi_request_success",
	Failures:         "tgi_request_failure",
	FailureClass:     "err",
	PromptLength:     "tgi_request_input_length",
	QueueTime:        "tgi_request_queue_duration",
	BatchSize:        "tgi_batch_current_max_tokens",
	BatchMax:         "tgi_batch_max_total_tokens",
}

var tritonServing = model.Serving{
	Waiting:      "nv_inference_pending_request_count",
	Completed:    "nv_inference_request_success",
	Failures:     "nv_inference_request_failure",
	FailureClass: "reason",
	Aborts:       `nv_inference_request_failure{reason="CANCELED"}`,
	GPUMemory:    "nv_gpu_memory_used_bytes",
}

var sglangServing = model.Serving{
	Running:          "sglang:num_running_reqs",
	Waiting:          "sglang:num_queue_reqs",
	KVCache:          "sglang:token_usage",
	PromptTokens:     "sglang:prompt_tokens_total",
	GenerationTokens: "sglang:generation_tokens_total",
	Completed:        "sglang:num_requests_total",
	Preemptions:      "sglang:num_retracted_reqs",
	Aborts:           "sglang:num_aborted_requests_total",
	Failures:         "sglang:num_aborted_requests_total",
	PromptLength:     "sglang:prompt_tokens_histogram",
	QueueTime:        "sglang:queue_time_seconds",
}
