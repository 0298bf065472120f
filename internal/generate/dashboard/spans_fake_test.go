package dashboard

import (
	"fmt"
	"strconv"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/profile"
)

// spanStages are the span names a runtime writes per request, each with a
// median duration in seconds: vLLM's one llm_request span
// (vllm/v1/engine/output_processor.py), SGLang's RequestStage slices
// (the wait for prefill, the prefill forward pass, the decode loop).
var spanStages = map[string][]stage{
	"vllm":   {{"llm_request", 1.2}},
	"sglang": {{"prefill_waiting", 0.1}, {"prefill_forward", 0.3}, {"decode_loop", 4}},
}

// stage is a span name and its median duration in seconds.
type stage struct {
	name   string
	median float64
}

// spanBounds are the fragment's span-metrics buckets, in seconds.
var spanBounds = []float64{0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60}

// withSpanMetrics adds to a runtime's fake the span metrics that the
// Collector's prometheus exporter writes for the service, when it has a
// collector block: the families are the exporter's, scraped here from
// the runtime's fake for brevity.
func withSpanMetrics(svc model.Service, fake func(float64) string) func(float64) string {
	if svc.Collector == nil || !profile.TelemetryOf(svc.Runtime).Spans {
		return fake
	}
	stages, ok := spanStages[svc.Runtime]
	if !ok { // TGI and Triton: a span whose name the dashboard does not need
		stages = []stage{{"request", 1}}
	}
	le := func(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
	return func(t float64) string {
		var e exposition
		e.family(plan.SpanDuration, "histogram", "span durations")
		for _, s := range stages {
			l := fmt.Sprintf(`%s=%q,%s=%q,span_kind="SPAN_KIND_SERVER",status_code="STATUS_CODE_UNSET"`, plan.SpanService, svc.Name, plan.SpanName, s.name)
			e.histogramSeries(plan.SpanDuration, l, dist{20 * t, s.median, les(spanBounds, le), spanBounds})
		}
		return fake(t) + e.b.String()
	}
}
