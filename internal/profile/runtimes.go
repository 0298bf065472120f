package profile

import "github.com/slogen-dev/slogen/internal/model"

// vLLM V1 (≈0.8–0.12). It has no failure counter up to at least 0.12; the
// HTTP middleware's 5xx responses are the failure signal every version has,
// and those metrics carry no model_name label.
var vllm = Profile{
	Runtime:    "vllm",
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
	Queue: &Histogram{Name: "vllm:request_queue_time_seconds", Unit: 1, Buckets: vllmLatencyBuckets, Format: PythonFormat, HasModel: true},
}

// TGI counts failures by reason and has no model label and no TTFT histogram.
var tgi = Profile{
	Runtime: "tgi",
	Note:    "slogen reads the metric names of TGI 3's router (checked at 3.3.7), on /metrics of the main port",
	Port:    3000,
	Path:    "/metrics",
	Serving: tgiServing,
	Availability: &Events{
		Total:  []Selector{{Name: "tgi_request_count"}},
		Failed: []Selector{{Name: "tgi_request_failure"}},
		Inputs: []Input{
			{Name: "tgi_request_count", Good: 1, Bad: 1},
			{Name: "tgi_request_success", Good: 1},
			{Name: "tgi_request_failure", Labels: map[string]string{"err": "generation"}, Bad: 1},
		},
	},
	Latency: &Histogram{Name: "tgi_request_duration", Unit: 1, Buckets: tgiDurationBuckets(), Format: GoFormat},
	ITL: &Histogram{Name: "tgi_request_mean_time_per_token_duration", Unit: 1, Buckets: tgiDurationBuckets(), Format: GoFormat,
		Note: "TGI observes each request's mean time per token, not every inter-token gap"},
	// The same histogram is exactly a TPOT: one observation per request.
	TPOT:  &Histogram{Name: "tgi_request_mean_time_per_token_duration", Unit: 1, Buckets: tgiDurationBuckets(), Format: GoFormat},
	Queue: &Histogram{Name: "tgi_request_queue_duration", Unit: 1, Buckets: tgiDurationBuckets(), Format: GoFormat},
	Unsupported: map[model.Kind]string{
		model.TTFT: "TGI exports no time-to-first-token histogram; use a latency SLO on tgi_request_duration, or a ratio SLO on metrics of your own",
	},
}

// Triton counts successes and failures separately; its only latency
// histogram is time to first response, in milliseconds, and it is off
// unless --metrics-config histogram_latencies=true.
var triton = Profile{
	Runtime:     "triton",
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
}

// SGLang counts finished and aborted requests; aborts are its only failure
// signal.
var sglang = Profile{
	Runtime:    "sglang",
	Note:       "SGLang exports metrics only when started with --enable-metrics; releases from before the model_name label (PR #1853) label them name",
	ModelLabel: "model_name",
	Port:       30000,
	Path:       "/metrics",
	Serving:    sglangServing,
	Availability: &Events{
		Total:  []Selector{{Name: "sglang:num_requests_total", HasModel: true}},
		Failed: []Selector{{Name: "sglang:num_aborted_requests_total", HasModel: true}},
		Inputs: []Input{
			{Name: "sglang:num_requests_total", HasModel: true, Good: 1, Bad: 1},
			{Name: "sglang:num_aborted_requests_total", HasModel: true, Bad: 1},
		},
	},
	Latency: &Histogram{Name: "sglang:e2e_request_latency_seconds", Unit: 1, Buckets: sglangLatencyBuckets, Format: PythonFormat, HasModel: true},
	TTFT:    &Histogram{Name: "sglang:time_to_first_token_seconds", Unit: 1, Buckets: sglangTTFTBuckets, Format: PythonFormat, HasModel: true},
	ITL:     &Histogram{Name: "sglang:inter_token_latency_seconds", Unit: 1, Buckets: sglangITLBuckets, Format: PythonFormat, HasModel: true},
	Queue:   &Histogram{Name: "sglang:queue_time_seconds", Unit: 1, Buckets: sglangQueueBuckets, Format: PythonFormat, HasModel: true},
	Unsupported: map[model.Kind]string{
		model.TPOT: "SGLang exports no per-request time-per-output-token histogram; use an itl SLO on sglang:inter_token_latency_seconds, which weighs every token",
	},
}
