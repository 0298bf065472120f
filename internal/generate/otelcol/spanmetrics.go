package otelcol

// spanMetricsConfig computes, from every span before sampling drops any,
// a duration histogram per service and span name: per-stage latency
// where the runtime writes a span per stage (SGLang's request stages),
// the request's where it writes one (vLLM).
func spanMetricsConfig() map[string]any {
	return map[string]any{
		"histogram": map[string]any{
			"unit": "s",
			// The SLO thresholds users write, from 50ms to a minute.
			"explicit": map[string]any{"buckets": []string{
				"50ms", "100ms", "250ms", "500ms", "1s", "2s", "5s", "10s", "20s", "30s", "60s",
			}},
		},
		"exemplars": map[string]any{"enabled": true},
	}
}
