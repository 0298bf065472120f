package profile

import "github.com/slogen-dev/slogen/internal/model"

// Telemetry is what a runtime writes besides its metrics: the spans an
// OpenTelemetry Collector samples, and the log lines that explain a dead
// engine. It is kept apart from the metrics' Profile because it does not
// change with the metrics' generations.
type Telemetry struct {
	// Spans is true when the runtime exports OTLP spans at all.
	Spans bool
	// SpanLatency names, per SLO kind, the float span attribute holding
	// that latency of the request in seconds: what a tail-sampling policy
	// compares with the SLO's threshold. A kind missing here has no
	// attribute the Collector could read.
	SpanLatency map[model.Kind]string
	// FatalLines are the log lines that say the engine is dying.
	FatalLines []LogLine
}

// LogLine is a log line worth counting: an event name (a Prometheus name
// fragment) and a literal part of the line, as the project's source writes
// it.
type LogLine struct {
	Event, Text string
}

// vLLM's and SGLang's request spans carry their latencies as float
// seconds under the same gen_ai.latency.* names: vllm-project/vllm
// vllm/tracing.py (SpanAttributes) at 91310096, set per request in
// vllm/v1/engine/output_processor.py; sgl-project/sglang
// python/sglang/srt/observability/req_time_stats.py
// (convert_to_gen_ai_span_attrs) at 602413bc, which sets no queue time.
const (
	attrTTFT  = "gen_ai.latency.time_to_first_token"
	attrE2E   = "gen_ai.latency.e2e"
	attrQueue = "gen_ai.latency.time_in_queue"
)

// torchLines are PyTorch's, under every runtime that runs on it:
// c10/cuda/CUDACachingAllocator.cpp ("CUDA out of memory. Tried to
// allocate ") and torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp
// ("Watchdog caught collective operation timeout: ").
var torchLines = []LogLine{
	{"cuda_oom", "CUDA out of memory"},
	{"nccl_watchdog_timeout", "Watchdog caught collective operation timeout"},
}

var telemetry = map[string]Telemetry{
	"vllm": {
		Spans:       true,
		SpanLatency: map[model.Kind]string{model.TTFT: attrTTFT, model.Latency: attrE2E, model.Queue: attrQueue},
		// vllm/v1/core/kv_cache_utils.py raises "No available memory for
		// the cache blocks. Try increasing `gpu_memory_utilization` ...";
		// vllm/v1/engine/exceptions.py defines EngineDeadError, whose
		// traceback names it.
		FatalLines: append([]LogLine{
			{"vllm_no_kv_cache_memory", "No available memory for the cache blocks"},
			{"vllm_engine_dead", "EngineDeadError"},
		}, torchLines...),
	},
	"sglang": {
		Spans:       true,
		SpanLatency: map[model.Kind]string{model.TTFT: attrTTFT, model.Latency: attrE2E},
		// python/sglang/srt/managers/scheduler.py logs "KV cache pool is
		// full. Retract requests. #retracted_reqs: ..."; the batch's
		// allocation raises "Prefill out of memory. Try to lower your
		// batch size.".
		FatalLines: append([]LogLine{
			{"sglang_kv_cache_full", "KV cache pool is full"},
			{"sglang_prefill_oom", "Prefill out of memory"},
		}, torchLines...),
	},
	// TGI's router and Triton export spans, but their latencies are span
	// durations and events, not float attributes a policy can compare.
	"tgi":    {Spans: true, FatalLines: torchLines},
	"triton": {Spans: true, FatalLines: torchLines},
}

// TelemetryOf is the runtime's Telemetry; a runtime slogen knows nothing
// of (custom) has none.
func TelemetryOf(runtime string) Telemetry { return telemetry[runtime] }
