package profile

import (
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// NVIDIA Dynamo's frontend (python -m dynamo.frontend), read in
// ai-dynamo/dynamo lib/runtime/src/metrics/prometheus_names.rs and
// lib/llm/src/http/service/metrics.rs at 1.0.0 (db88c95) and on the 1.1.0
// line (df888f6). The frontend lower-cases the model on its request
// metrics and keeps it on its model_* gauges; its histograms' buckets are
// log-spaced and rounded to two figures, so few usual thresholds are
// bounds. 1.1.0 widened the request-duration buckets (PR #8087): the two
// generations differ in nothing else slogen reads.
var dynamo = dynamoSince("1.1.0", []float64{0, 2, 4, 8, 16, 32, 64, 130, 260, 510})

// dynamo100 is the 1.0 line, with request durations up to 260 s.
var dynamo100 = dynamoSince("1.0.0", []float64{0, 1.9, 3.4, 6.3, 12, 22, 40, 75, 140, 260})

func dynamoSince(since string, durationBuckets []float64) Profile {
	return Profile{
		Runtime:    "dynamo",
		Title:      "Dynamo",
		Since:      since,
		Note:       "slogen reads NVIDIA Dynamo's frontend on /metrics of its HTTP port (checked at 1.0.0 and 1.1.0), with DYN_METRICS_PREFIX unset; its request metrics carry the model lower-cased, and KV usage is the workers' dynamo_component_gpu_cache_usage_percent on their DYN_SYSTEM_PORT: scrape the workers into the service's job, or the KV panel and KVCacheHigh have no data; dynamo_frontend_queued_requests counts requests until their first token, prefill included, so set thresholds.queue_depth above the requests usually in prefill at once",
		ModelLabel: "model",
		ModelCase:  model.ModelCase{Lower: []string{"dynamo_frontend_"}, Kept: []string{"dynamo_frontend_model_"}},
		Port:       8000,
		Path:       "/metrics",
		Serving:    dynamoServing,
		Availability: &Events{
			Total:  []Selector{{Name: "dynamo_frontend_requests_total", HasModel: true}},
			Failed: []Selector{{Name: "dynamo_frontend_requests_total", Matchers: dynamoServerErrors, HasModel: true}},
			Inputs: []Input{
				{Name: "dynamo_frontend_requests_total", Labels: map[string]string{"endpoint": "chat_completions", "request_type": "stream", "status": "success"}, HasModel: true, Good: 1},
				{Name: "dynamo_frontend_requests_total", Labels: map[string]string{"endpoint": "chat_completions", "request_type": "stream", "status": "error", "error_type": "internal"}, HasModel: true, Bad: 1},
			},
		},
		Latency: &Histogram{Name: "dynamo_frontend_request_duration_seconds", Unit: 1, Buckets: durationBuckets, Format: GoFormat, HasModel: true},
		TTFT:    &Histogram{Name: "dynamo_frontend_time_to_first_token_seconds", Unit: 1, Buckets: dynamoTTFTBuckets, Format: GoFormat, HasModel: true},
		ITL:     &Histogram{Name: "dynamo_frontend_inter_token_latency_seconds", Unit: 1, Buckets: dynamoITLBuckets, Format: GoFormat, HasModel: true},
		Unsupported: map[model.Kind]string{
			model.TPOT:  "Dynamo's frontend exports no per-request time-per-output-token histogram; use an itl SLO on dynamo_frontend_inter_token_latency_seconds",
			model.Queue: "Dynamo's frontend exports no queue-time histogram (dynamo_frontend_queued_requests is a gauge, and counts requests until their first token, prefill included); use a ttft SLO, which includes the wait",
		},
		NoPrefixCache: "runtime dynamo's frontend counts no prefix-cache hits (its kv_hit_rate is the router's prediction); the workers' engines count them",
		Advice: Advice{
			MetricsGone: "Dynamo's frontend names its metrics\n" +
				"`dynamo_frontend_*` unless `DYN_METRICS_PREFIX` renames them, and\n" +
				"writes the model lower-cased on its request metrics.",
			QueueLimits:   "the workers' batch limits, such as vLLM's `--max-num-seqs`",
			KVCacheLimits: "the workers' limits, such as vLLM's `--max-num-seqs` and `--max-model-len`",
		},
	}
}

// Client errors (bad requests, unknown models) and cancellations are not
// the service failing; overload, internal errors and whatever error type
// a later release adds are.
var dynamoServerErrors = matchers(eq("status", "error"),
	labels.MustNewMatcher(labels.MatchNotRegexp, "error_type", "validation|not_found|cancelled"))

// The frontend's gauges and counters, lower-cased model and all, and the
// workers' KV gauge, which keeps the model as given.
var dynamoServing = model.Serving{
	Running:          model.Metric("dynamo_frontend_inflight_requests"),
	Waiting:          model.Metric("dynamo_frontend_queued_requests"),
	KVCache:          model.Metric("dynamo_component_gpu_cache_usage_percent"),
	PromptTokens:     model.Metric("dynamo_frontend_input_sequence_tokens_sum"),
	GenerationTokens: model.Metric("dynamo_frontend_output_tokens_total"),
	Completed:        model.Selector{Name: "dynamo_frontend_requests_total", Matchers: matchers(eq("status", "success"))},
	Aborts:           model.Selector{Name: "dynamo_frontend_requests_total", Matchers: matchers(eq("error_type", "cancelled"))},
	Failures:         model.Selector{Name: "dynamo_frontend_requests_total", Matchers: matchers(eq("status", "error"))},
	FailureClass:     "error_type",
	PromptLength:     "dynamo_frontend_input_sequence_tokens",
}

// The frontend's default TTFT (0.001 to 480 s, 18) and ITL (0.001 to 2 s,
// 13) buckets, each starting at 0, as its generate_log_buckets rounds
// them.
var (
	dynamoTTFTBuckets = []float64{0, 0.0022, 0.0047, 0.01, 0.022, 0.047, 0.1, 0.22, 0.47, 1, 2.2, 4.7, 10, 22, 48, 100, 220, 480}
	dynamoITLBuckets  = []float64{0, 0.0019, 0.0035, 0.0067, 0.013, 0.024, 0.045, 0.084, 0.16, 0.3, 0.56, 1.1, 2}
)
