package profile

import "github.com/slogen-dev/slogen/internal/model"

// KServe's Python model server (read at v0.20.0) times each step of a
// request in its own histogram with prometheus_client's default buckets,
// and counts neither requests nor failures. LLMs served through its vLLM
// backend export vLLM's metrics: they take the vllm runtime.
var kserve = Profile{
	Runtime:    "kserve",
	Title:      "KServe",
	Since:      "0.10.0",
	Note:       "slogen reads the request_*_seconds histograms of KServe's Python model server (checked at v0.20.0); an LLM served through KServe's vLLM backend exports vllm:* names: give it runtime \"vllm\" with scrape.runtime.port 8080, and no availability SLO, since KServe's server lacks the http_requests_total vLLM's reads",
	ModelLabel: "model_name",
	Port:       8080,
	Path:       "/metrics",
	Latency: &Histogram{Name: "request_predict_seconds", Unit: 1, Buckets: PythonDefaultBuckets, Format: PythonFormat, HasModel: true,
		Note: "request_predict_seconds times the model's predict alone: preprocess and postprocess have their own histograms, and buckets end at 10s"},
	Unsupported: map[model.Kind]string{
		model.Availability: "KServe's model server counts neither requests nor failures; use a ratio SLO on the 5xx responses your ingress or service mesh counts in front of the predictor",
		model.TTFT:         "KServe's model server exports no time-to-first-token histogram; serve LLMs through its vLLM backend with runtime vllm, or use a latency SLO on request_predict_seconds",
		model.ITL:          "KServe's model server exports no inter-token latency histogram; serve LLMs through its vLLM backend with runtime vllm",
		model.TPOT:         "KServe's model server exports no time-per-output-token histogram; serve LLMs through its vLLM backend with runtime vllm",
		model.Queue:        "KServe's model server exports no queue-time histogram; use a latency SLO on request_predict_seconds",
	},
	Serving:       model.Serving{Completed: model.Metric("request_predict_seconds_count")},
	NoPrefixCache: "runtime kserve exports no prefix-cache metrics (its model server times requests only)",
	Advice: Advice{
		QueueLimits: "the predictor's replicas (`minReplicas`, `maxReplicas`, `scaleTarget`)",
	},
}
