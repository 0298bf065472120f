package profile

import "github.com/slogen-dev/slogen/internal/model"

// TGI counts failures by reason and has no model label and no TTFT histogram.
var tgi = Profile{
	Runtime: "tgi",
	Title:   "TGI",
	Since:   "3.0.0",
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
	Advice: Advice{
		MetricsGone:   "TGI exports its metrics only with metrics\nenabled.",
		QueueLimits:   "`--max-concurrent-requests`, `--max-batch-total-tokens`",
		KVCacheLimits: "`--max-concurrent-requests`, `--max-total-tokens`",
	},
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

// tgiDurationBuckets rebuilds TGI's 35 geometric buckets the way its router
// does, by repeated multiplication, so the floats (and their le strings) are
// bit-for-bit the exporter's.
func tgiDurationBuckets() []float64 {
	b := make([]float64, 0, 35)
	v := 0.0001
	for range 35 {
		v *= 1.5
		b = append(b, v)
	}
	return b
}
