package profile

import (
	"fmt"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// The Gateway API Inference Extension's endpoint picker (EPP) sees every
// request the gateway routes to a pool of engines: its SLIs are the
// users' view of the whole pool, and target_model_name, the model or
// LoRA adapter a request was sent to, splits them per adapter. Its
// metrics were renamed (inference_model_* in v1.0, inference_objective_*
// from v1.1, #1567), and TTFT and TPOT histograms came in v1.2: an entry
// per generation, newest first. v1.5.0 is the last release with an EPP;
// it then moved to llm-d-router (llmdrouter.go).
var (
	gaie     = gaieEntry("v1.2.0", "inference_objective", true)
	gaieV1_1 = gaieEntry("v1.1.0", "inference_objective", false)
	gaieV1_0 = gaieEntry("v1.0.0", "inference_model", false)
)

// gaieEntry is GAIE's EPP from release since, its request metrics under
// the subsystem prefix; withTokenTimes for the releases that have the
// TTFT and TPOT histograms.
func gaieEntry(since, prefix string, withTokenTimes bool) Profile {
	p := Profile{
		Runtime:     "gaie",
		Title:       "GAIE endpoint picker",
		Since:       since,
		Note:        "slogen reads the endpoint picker's metrics of Gateway API Inference Extension " + since + " and later (up to v1.5.0, the last release with an endpoint picker; after it, runtime llm-d-router); they are served on :9090/metrics behind Kubernetes authentication (--metrics-endpoint-auth, on by default): give the scrape a bearer token (scrape.runtime.authorization) of a service account allowed to get the non-resource URL /metrics",
		ModelLabel:  "model_name",
		ModelLabels: []string{"target_model_name"},
		Port:        9090,
		Path:        "/metrics",
		NoModel:     gatewayNoModel,
		Gateway:     true,
		Serving: model.Serving{
			Waiting:          model.Metric("inference_pool_average_queue_size"),
			KVCache:          model.Metric("inference_pool_average_kv_cache_utilization"),
			ReadyEndpoints:   model.Metric("inference_pool_ready_pods"),
			Completed:        model.Metric(prefix + "_request_total"),
			PromptTokens:     model.Metric(prefix + "_input_tokens_sum"),
			GenerationTokens: model.Metric(prefix + "_output_tokens_sum"),
			Failures:         model.Metric(prefix + "_request_error_total"),
			FailureClass:     "error_code",
			PromptLength:     prefix + "_input_tokens",
		},
		Availability: eppEvents(prefix+"_request_total", prefix+"_request_error_total", nil),
		Latency:      eppHistogram(prefix+"_request_duration_seconds", eppLatencyBuckets, ""),
		Unsupported: map[model.Kind]string{
			model.ITL:   "the GAIE endpoint picker exports no inter-token latency histogram; use tpot (v1.2.0 and later), or runtime llm-d-router, whose picker has one",
			model.Queue: "the GAIE endpoint picker exports no queue-time histogram of the engines; use ttft (v1.2.0 and later), or a queue SLO on the engine services behind the gateway",
		},
		NoPrefixCache: "the GAIE endpoint picker exports no prefix-cache hits of the engines (its prefix_indexer_* metrics are its own routing index); read them on the engine services behind the gateway",
		Advice:        eppAdvice,
	}
	if !withTokenTimes {
		p.Unsupported[model.TTFT] = "the GAIE endpoint picker exports request_ttft_seconds from v1.2.0; set version to your release, upgrade, or use a latency SLO on " + prefix + "_request_duration_seconds"
		p.Unsupported[model.TPOT] = "the GAIE endpoint picker exports request_tpot_seconds from v1.2.0; set version to your release, upgrade, or use a latency SLO on " + prefix + "_request_duration_seconds"
		return p
	}
	pluginNote := "GAIE's endpoint picker records %s only while its predicted-latency (SLO-aware) plugin runs; without it the histogram stays empty and SLOMetricsAbsent fires"
	p.TTFT = eppHistogram(prefix+"_request_ttft_seconds", eppLatencyBuckets, fmt.Sprintf(pluginNote, prefix+"_request_ttft_seconds"))
	p.TPOT = eppHistogram(prefix+"_request_tpot_seconds", gaieTPOTBuckets, fmt.Sprintf(pluginNote, prefix+"_request_tpot_seconds"))
	return p
}

// gatewayNoModel is why a gateway's spec names no model: the pool's
// gauges carry its name, not a model's.
const gatewayNoModel = "an endpoint picker routes every model of its pool, and its pool gauges (KV cache, queue, ready endpoints) carry the pool's name, not a model's, so model would silence them: leave model out, and split SLOs per model with group_by: [\"model_name\"] or per adapter with group_by: [\"target_model_name\"]"

// eppEvents reads the picker's availability. Its request counter counts a
// request only once the picker has scheduled it, while its error counter
// also counts the requests refused before (no ready endpoint, a full
// pool, a bad body): all requests are the counted ones plus the errors of
// any code but ModelServerError, the one code of a scheduled request.
// Errors of the client's making (BadRequest and the like) are requests
// served as they should be: they count in the total, not as failures.
func eppEvents(requests, errors string, inputLabels map[string]string) *Events {
	withLabels := func(extra map[string]string) map[string]string {
		out := map[string]string{"target_model_name": "base"}
		for k, v := range inputLabels {
			out[k] = v
		}
		for k, v := range extra {
			out[k] = v
		}
		return out
	}
	return &Events{
		Total: []Selector{
			{Name: requests, HasModel: true},
			{Name: errors, HasModel: true, Matchers: matchers(ne("error_code", eppScheduledError))},
		},
		Failed: []Selector{{Name: errors, HasModel: true, Matchers: matchers(nre("error_code", eppClientErrors))}},
		Inputs: []Input{
			{Name: requests, Labels: withLabels(nil), HasModel: true, Good: 1},
			{Name: errors, Labels: withLabels(map[string]string{"error_code": "ServiceUnavailable"}), HasModel: true, Bad: 1},
		},
	}
}

// The picker's error codes (pkg/common/error, formerly pkg/epp/util/error).
const (
	// eppScheduledError is the code of a request the model server failed
	// (any status but 200), which the request counter has counted.
	eppScheduledError = "ModelServerError"
	// eppClientErrors are the codes of requests refused for the client's
	// own fault.
	eppClientErrors = "BadRequest|Unauthorized|Forbidden|NotFound|PreconditionFailed"
)

func ne(name, value string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchNotEqual, name, value)
}

func nre(name, value string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchNotRegexp, name, value)
}

func eppHistogram(name string, buckets []float64, note string) *Histogram {
	return &Histogram{Name: name, Unit: 1, Buckets: buckets, Format: GoFormat, HasModel: true, Note: note}
}

var eppAdvice = Advice{
	MetricsGone:   "the endpoint picker renamed its metrics across\nreleases: set the spec's `version` to the release you run.",
	QueueLimits:   "the engines' own limits, or more replicas in the InferencePool",
	KVCacheLimits: "the engines' own limits, or more replicas in the InferencePool",
}

// GAIE's buckets, in seconds (pkg/epp/metrics/metrics.go): e2e latency and
// TTFT share one set, 5 ms to an hour.
var (
	eppLatencyBuckets = []float64{0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120, 180, 240, 300, 360, 480, 600, 900, 1200, 1800, 2700, 3600}
	gaieTPOTBuckets   = []float64{0.0005, 0.00205, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.5, 2, 3, 4.5, 6, 12, 18, 24, 30, 36, 48, 60, 90, 120, 180, 270, 360}
)
