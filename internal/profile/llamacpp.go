package profile

import "github.com/slogen-dev/slogen/internal/model"

// llama.cpp's llama-server counts tokens and seconds and shows how many
// requests run and wait, nothing more: no histogram, no request or error
// counter, no labels. No SLO kind can be built from it; its queue and
// slots feed the serving alerts and the dashboard, its token counters the
// throughput panel. Its floor is build b2364 (PR #5937, 2024-03-08), the
// first to export the two seconds counters; PR #5708 (b2258) had added
// the other four names.
var llamacpp = Profile{
	Runtime: "llamacpp",
	Title:   "llama.cpp",
	Since:   "b2364",
	Note:    "llama-server exports metrics only when started with --metrics (a router-mode server also wants ?model= on /metrics); it has no histogram, no request or error counter and no labels, so no SLO kind reads it: its services have serving alerts and a dashboard, and SLOs written as ratio over a proxy's metrics",
	Port:    8080,
	Path:    "/metrics",
	Serving: model.Serving{
		// A request runs in a slot (--parallel of them): requests_processing
		// is the busy slots; requests_deferred waits for a free one.
		Running:           model.Metric("llamacpp:requests_processing"),
		Waiting:           model.Metric("llamacpp:requests_deferred"),
		PromptTokens:      model.Metric("llamacpp:prompt_tokens_total"),
		GenerationTokens:  model.Metric("llamacpp:tokens_predicted_total"),
		PromptSeconds:     model.Metric("llamacpp:prompt_seconds_total"),
		GenerationSeconds: model.Metric("llamacpp:tokens_predicted_seconds_total"),
	},
	Unsupported: map[model.Kind]string{
		model.Availability: "llama-server counts no requests and no failures, so no availability SLI can be built from it; write a ratio SLO over the request and 5xx counters of a proxy or gateway in front of it",
		model.Latency:      llamacppNoHistogram,
		model.TTFT:         llamacppNoHistogram,
		model.ITL:          llamacppNoHistogram,
		model.TPOT:         llamacppNoHistogram,
		model.Queue:        "llama-server exports no histogram, only the number of requests waiting now (llamacpp:requests_deferred), which InferenceQueueBacklog watches; for a queue-time SLO, time the wait in a proxy and write a ratio SLO over its histogram",
	},
	NoPrefixCache: "llama-server exports no prefix-cache hit counter that slogen reads (its prompt-cache counters differ across builds)",
	Advice: Advice{
		MetricsGone: "llama-server exports its metrics only with\n`--metrics`.",
		QueueLimits: "`--parallel` (`-np`), the number of slots",
	},
}

// llamacppNoHistogram is why llama.cpp serves no latency kind.
const llamacppNoHistogram = "llama-server exports no histogram (its prompt_tokens_seconds and predicted_tokens_seconds are throughput averages, not per-request times), so no latency SLO can be built from it; time requests in a proxy or gateway in front of it and write a ratio SLO over that histogram, or serve it behind a gateway slogen knows"
