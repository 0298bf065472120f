package profile

import (
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// OpenTelemetry's GenAI semantic conventions (the last in-tree text,
// open-telemetry/semantic-conventions docs/gen-ai/gen-ai-metrics.md at
// 7b0c0fe) as Prometheus stores them after OTLP: Prometheus's OTLP
// receiver or the Collector's prometheus exporter, both translating with
// prometheus/otlptranslator's default UnderscoreEscapingWithSuffixes
// (v1.0.0): the unit s becomes _seconds, every dot an underscore. The
// conventions define three server histograms and no counter and no
// gauge: requests are request.duration's count, errors the part of it
// with error.type set.
var otelGenAI = Profile{
	Runtime: "otel-genai",
	Title:   "OpenTelemetry GenAI",
	// A release is the semantic conventions' version the instrumentation
	// follows: the three server histograms, their advised buckets and
	// the attributes read here are all in v1.27.0.
	Since: "1.27.0",
	Note: "slogen reads the gen_ai.server.* histograms of OpenTelemetry's GenAI semantic conventions (Development stability; last in-tree text at " +
		"open-telemetry/semantic-conventions 7b0c0fe) as OTLP's default translation names them (gen_ai_server_request_duration_seconds); " +
		"they define no queue, KV-cache or running gauge, so slogen writes no engine alert or panel for them",
	// gen_ai.request.model is conditionally required on all three
	// metrics and always known to a server; gen_ai.response.model is
	// only recommended.
	ModelLabel:  "gen_ai_request_model",
	ModelLabels: []string{"gen_ai_operation_name"},
	// The Collector's prometheus exporter has no default endpoint; 8889
	// is the port its examples use. Prometheus's OTLP receiver needs no
	// scrape at all.
	Port:             8889,
	Path:             "/metrics",
	NativeHistograms: true,
	Serving:          otelGenAIServing,
	Availability: &Events{
		Total:  []Selector{{Name: otelDuration + "_count", HasModel: true}},
		Failed: []Selector{{Name: otelDuration + "_count", HasModel: true, Matchers: matchers(otelFailed)}},
		Inputs: []Input{
			{Name: otelDuration + "_count", Labels: otelLabels, HasModel: true, Good: 1},
			{Name: otelDuration + "_count", Labels: otelErrorLabels, HasModel: true, Bad: 1},
		},
	},
	// Failed requests are observed in the request duration too: its
	// latency SLO counts the others, as TTFT and TPOT do, so that a
	// failure counts against availability alone.
	Latency: otelHistogram(otelDuration, otelDurationBuckets, "", otelSucceeded),
	TTFT:    otelHistogram("gen_ai_server_time_to_first_token_seconds", otelTTFTBuckets, otelSuccessOnly),
	TPOT:    otelHistogram("gen_ai_server_time_per_output_token_seconds", otelTPOTBuckets, otelSuccessOnly),
	Unsupported: map[model.Kind]string{
		model.ITL:   "the GenAI conventions define no inter-token latency histogram; use a tpot SLO on gen_ai_server_time_per_output_token_seconds, each request's mean time per output token after the first",
		model.Queue: "the GenAI conventions define no queue-time histogram (time_to_first_token includes the wait); use a ttft SLO",
	},
	NoPrefixCache: "runtime otel-genai exports no prefix-cache counters: the GenAI conventions define none",
	Advice: Advice{
		MetricsGone: "The GenAI conventions are at Development stability:\n" +
			"instrumentations keep the v1.36.0 names unless\n" +
			"`OTEL_SEMCONV_STABILITY_OPT_IN=gen_ai_latest_experimental`. Check the\n" +
			"OTLP pipeline too: a Collector, or Prometheus's OTLP receiver\n" +
			"(`--web.enable-otlp-receiver`), and its translation strategy.",
		SuccessOnly: "OpenTelemetry's GenAI conventions record time to first token and\n" +
			"time per output token for successful responses only. While every\n" +
			"request fails these histograms get no observation: a TTFT or TPOT\n" +
			"SLO sees no traffic and stays green. The availability SLO, read from\n" +
			"`error_type` on the request duration's count, is the one that burns.",
	},
}

const (
	otelDuration    = "gen_ai_server_request_duration_seconds"
	otelSuccessOnly = "the GenAI conventions record this histogram for successful responses only: during an outage it gets no observation and the SLO stays green; pair it with an availability SLO"
)

// otelFailed is a request that ended in an error: error.type is set only
// then.
var otelFailed = labels.MustNewMatcher(labels.MatchNotEqual, "error_type", "")

// otelSucceeded matches a request that did not fail.
var otelSucceeded = labels.MustNewMatcher(labels.MatchEqual, "error_type", "")

// The required attributes every series carries, and a failure's.
var (
	otelLabels      = map[string]string{"gen_ai_operation_name": "chat", "gen_ai_provider_name": "openai"}
	otelErrorLabels = map[string]string{"gen_ai_operation_name": "chat", "gen_ai_provider_name": "openai", "error_type": "500"}
)

func otelHistogram(name string, buckets []float64, note string, ms ...*labels.Matcher) *Histogram {
	return &Histogram{Name: name, Unit: 1, Buckets: buckets, Format: GoFormat, HasModel: true,
		Matchers: ms, Labels: otelLabels, Note: note}
}

// The conventions define only histograms; request.duration's count is the
// completed requests, its error_type the failures.
var otelGenAIServing = model.Serving{
	Completed:    model.Selector{Name: otelDuration + "_count", Matchers: matchers(otelSucceeded)},
	Failures:     model.Selector{Name: otelDuration + "_count", Matchers: matchers(otelFailed)},
	FailureClass: "error_type",
}

// The advised explicit bucket boundaries (gen-ai-metrics.md at 7b0c0fe).
// OTLP carries them as numbers; both translations write le with Go's
// shortest formatting ("1", "2.5").
var (
	otelDurationBuckets = []float64{0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92}
	otelTTFTBuckets     = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
	otelTPOTBuckets     = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5}
)
