package plan

// The span metrics of the Collector fragment (internal/generate/otelcol)
// as the dashboard reads them from the user's prometheus exporter, whose
// default translation (UnderscoreEscapingWithSuffixes at v0.161.0) turns
// the connector's histogram traces.span.metrics.duration, unit s, into
// these names, and its attributes service.name and span.name into these
// labels. TestSpanMetricsReachPrometheusAsNamed
// (internal/generate/otelcol) runs the connector and the translation.
const (
	// SpanDuration is the duration histogram of every span, before
	// sampling: its _bucket, _sum and _count series.
	SpanDuration = "traces_span_metrics_duration_seconds"
	// SpanService is the label holding the span's service.name: the
	// spec's service name, as the runtime must be started with.
	SpanService = "service_name"
	// SpanName is the label holding the span's name: a request stage
	// where the runtime writes a span per stage.
	SpanName = "span_name"
)
