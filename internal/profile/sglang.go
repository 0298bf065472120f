package profile

import (
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
)

// SGLang counts finished and aborted requests; aborts are its only failure
// signal.
var sglang = Profile{
	Runtime:    "sglang",
	Title:      "SGLang",
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
	Preallocation: "--mem-fraction-static (about 0.9 by default)",
	Advice: Advice{
		MetricsGone:    "SGLang exports its metrics only with\n`--enable-metrics`.",
		QueueLimits:    "`--max-running-requests`",
		KVCacheLimits:  "`--max-running-requests`, `--context-length`",
		PrefixCacheOff: "`--disable-radix-cache`",
		Reservation: "SGLang reserves `--mem-fraction-static` of each GPU when it starts: a\n" +
			"steady value near it is that reservation, not a problem. Raise\n" +
			"`thresholds.vram_percent` above it.",
	},
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

// SGLang buckets: e2e latency is the TTFT set plus four long ones.
var (
	sglangTTFTBuckets    = []float64{0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400}
	sglangLatencyBuckets = slices.Concat(sglangTTFTBuckets, []float64{600, 1200, 1800, 2400})
	sglangITLBuckets     = []float64{0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040, 0.060, 0.080, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8}
	sglangQueueBuckets   = []float64{0, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000}
)
