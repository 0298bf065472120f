package profile

import "github.com/slogen-dev/slogen/internal/model"

// LMDeploy's API server (read at v0.16.0) counts no failed request in a
// counter: lmdeploy:request_success_total is incremented only for requests
// that finish normally, and the server exports no HTTP metrics. Failures
// are counted since the server started in a gauge, with client
// cancellations among them.
var lmdeploy = Profile{
	Runtime:    "lmdeploy",
	Title:      "LMDeploy",
	Since:      "0.13.0",
	Note:       "slogen reads the lmdeploy:* names of LMDeploy 0.13 and later (checked at v0.16.0); metrics are on by default from 0.11 (--disable-metrics turns them off), earlier releases need --enable-metrics",
	ModelLabel: "model_name",
	Port:       23333,
	Path:       "/metrics",
	Serving:    lmdeployServing,
	Latency: &Histogram{Name: "lmdeploy:e2e_request_latency_seconds", Unit: 1, Buckets: lmdeployRequestBuckets, Format: PythonFormat, HasModel: true,
		Note: "LMDeploy observes lmdeploy:e2e_request_latency_seconds only for requests that finish normally: a failed request is in no bucket"},
	TTFT: &Histogram{Name: "lmdeploy:time_to_first_token_seconds", Unit: 1, Buckets: lmdeployTTFTBuckets, Format: PythonFormat, HasModel: true},
	ITL: &Histogram{Name: "lmdeploy:time_per_output_token_seconds", Unit: 1, Buckets: lmdeployTokenBuckets, Format: PythonFormat, HasModel: true,
		Note: "LMDeploy observes lmdeploy:time_per_output_token_seconds at every engine output after the first: the gap since the last output over the tokens it carries"},
	Queue: &Histogram{Name: "lmdeploy:request_queue_time_seconds", Unit: 1, Buckets: lmdeployRequestBuckets, Format: PythonFormat, HasModel: true,
		Note: "lmdeploy:request_queue_time_seconds starts at 0.3 s (no queue SLO below 300ms) and counts only requests that finish normally"},
	Unsupported: map[model.Kind]string{
		model.Availability: "LMDeploy counts no failed requests in a counter (lmdeploy:request_success_total counts only requests that finish normally, and its API server exports no HTTP metrics); " +
			"use a ratio SLO with bad: sum(rate(lmdeploy:num_requests_failed[$window])) and total: that plus sum(rate(lmdeploy:num_requests_succeeded[$window])) " +
			"(gauges that hold counts since the server started; failed includes requests the client cancelled), or a ratio SLO on your gateway's 5xx responses",
		model.TPOT: "LMDeploy observes lmdeploy:time_per_output_token_seconds at every engine output, not once per request; use an itl SLO on it",
	},
	Preallocation: "--cache-max-entry-count (0.8 by default)",
	Advice: Advice{
		MetricsGone:    "LMDeploy exports its metrics by default from\n0.11, unless started with `--disable-metrics`.",
		QueueLimits:    "`--max-batch-size`",
		KVCacheLimits:  "`--max-batch-size`, `--session-len`",
		PrefixCacheOff: "`--enable-prefix-caching` (off by default)",
		Reservation: "LMDeploy gives the KV cache `--cache-max-entry-count` (0.8 by default)\n" +
			"of each GPU's free memory when it starts: a steady value near it is\n" +
			"that reservation, not a problem. Raise `thresholds.vram_percent` above it.",
	},
}

// LMDeploy keeps its request counts in gauges that grow from the server's
// start and drop to zero when it restarts, which rate reads as a counter.
var lmdeployServing = model.Serving{
	Running:             model.Metric("lmdeploy:num_requests_running"),
	Waiting:             model.Metric("lmdeploy:num_requests_waiting"),
	KVCache:             model.Metric("lmdeploy:gpu_cache_usage_perc"),
	PromptTokens:        model.Metric("lmdeploy:prompt_tokens_total"),
	GenerationTokens:    model.Metric("lmdeploy:generation_tokens_total"),
	Completed:           model.Metric("lmdeploy:num_requests_succeeded"),
	Failures:            model.Metric("lmdeploy:num_requests_failed"),
	PrefixCacheHitRatio: model.Metric("lmdeploy:prefix_cache_hit_rate"),
	PromptLength:        "lmdeploy:request_prompt_tokens",
	QueueTime:           "lmdeploy:request_queue_time_seconds",
}

// LMDeploy's buckets (lmdeploy/metrics/loggers.py, the same from v0.10.0 to v0.16.0).
var (
	lmdeployTTFTBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560}
	lmdeployTokenBuckets   = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80}
	lmdeployRequestBuckets = []float64{0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680}
)
