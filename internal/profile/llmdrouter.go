package profile

import "github.com/slogen-dev/slogen/internal/model"

// llm-d-router's endpoint picker is GAIE's, moved into it (v0.9.0; GAIE
// #2967 then removed its own) and versioned on the router's own line: a
// runtime of its own, since one version field cannot order the two
// projects' releases (router v0.8.0, then llm-d-inference-scheduler,
// ran GAIE v1.5.0's picker, whose names are runtime gaie's). From v0.9.0 it writes every metric twice, under GAIE's
// inference_objective_* names and under llm_d_epp_*; slogen reads the
// llm_d_epp_* ones, the only ones with the core TTFT, TPOT and ITL
// histograms (#1499, #1591), which every request feeds.
var llmdRouter = Profile{
	Runtime:     "llm-d-router",
	Title:       "llm-d router",
	Since:       "v0.9.0",
	Note:        "slogen reads llm-d-router's llm_d_epp_* metrics (v0.9.0 and later; main briefly named them llm_d_router_epp_*, in no release), on :9090/metrics behind Kubernetes authentication (--metrics-endpoint-auth, on by default): give the scrape a bearer token (scrape.runtime.authorization) of a service account allowed to get the non-resource URL /metrics",
	ModelLabel:  "model_name",
	ModelLabels: []string{"target_model_name", "fairness_id", "priority"},
	Port:        9090,
	Path:        "/metrics",
	NoModel:     gatewayNoModel,
	Gateway:     true,
	Serving: model.Serving{
		Waiting:          model.Metric(llmdPrefix + "average_queue_size"),
		KVCache:          model.Metric(llmdPrefix + "average_kv_cache_utilization"),
		ReadyEndpoints:   model.Metric(llmdPrefix + "ready_endpoints"),
		Completed:        model.Metric(llmdPrefix + "request_total"),
		PromptTokens:     model.Metric(llmdPrefix + "request_input_tokens_sum"),
		GenerationTokens: model.Metric(llmdPrefix + "request_output_tokens_sum"),
		Failures:         model.Metric(llmdPrefix + "request_error_total"),
		FailureClass:     "error_code",
		PromptLength:     llmdPrefix + "request_input_tokens",
	},
	Availability: eppEvents(llmdPrefix+"request_total", llmdPrefix+"request_error_total", map[string]string{"priority": "0"}),
	Latency:      eppHistogram(llmdPrefix+"request_duration_seconds", eppLatencyBuckets, ""),
	TTFT: eppHistogram(llmdPrefix+"request_ttft_seconds", llmdTTFTBuckets,
		"llm_d_epp_request_ttft_seconds observes a non-streaming request's whole duration (its label streaming=\"false\"): with non-streaming traffic, a latency SLO says the same"),
	ITL: eppHistogram(llmdPrefix+"request_streaming_itl_seconds", llmdITLBuckets,
		"llm_d_epp_request_streaming_itl_seconds times the gap between response chunks of streaming requests only"),
	TPOT: eppHistogram(llmdPrefix+"request_streaming_tpot_seconds", llmdTPOTBuckets,
		"llm_d_epp_request_streaming_tpot_seconds observes streaming requests only: (e2e − TTFT) / (output tokens − 1)"),
	Unsupported: map[model.Kind]string{
		model.Queue: "llm-d-router's flow_control_request_queue_duration_seconds times only its flow-control layer, off unless enabled, and counts the requests it rejects with those it dispatches; use a ttft SLO, which includes the wait, or a queue SLO on the engine services behind the gateway",
	},
	NoPrefixCache: "llm-d-router exports no prefix-cache hits of the engines (its prefix_indexer_* and kv-cache metrics are its own routing index); read them on the engine services behind the gateway",
	Advice:        eppAdvice,
}

// llmdPrefix is llm-d-router's subsystem (LLMDRouterEndpointPickerSubsystem).
const llmdPrefix = "llm_d_epp_"

// llm-d-router's own buckets (pkg/epp/metrics/llm_d_router_metrics.go);
// e2e latency keeps GAIE's.
var (
	llmdTTFTBuckets = []float64{0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60, 120}
	llmdTPOTBuckets = []float64{0.0005, 0.00205, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.125, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 2}
	llmdITLBuckets  = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2}
)
