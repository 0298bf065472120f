package profile

import (
	"testing"

	"github.com/prometheus/otlptranslator"
)

// TestOTelGenAINamesAreOTLPTranslations: the names and labels the
// otel-genai entry reads are what Prometheus's own OTLP translation
// (prometheus/otlptranslator, the default UnderscoreEscapingWithSuffixes)
// makes of the conventions' metrics and attributes, for a classic and for
// an exponential histogram alike.
func TestOTelGenAINamesAreOTLPTranslations(t *testing.T) {
	namer := otlptranslator.NewMetricNamer("", otlptranslator.UnderscoreEscapingWithSuffixes)
	for semconv, h := range map[string]*Histogram{
		"gen_ai.server.request.duration":      otelGenAI.Latency,
		"gen_ai.server.time_to_first_token":   otelGenAI.TTFT,
		"gen_ai.server.time_per_output_token": otelGenAI.TPOT,
	} {
		for _, typ := range []otlptranslator.MetricType{otlptranslator.MetricTypeHistogram, otlptranslator.MetricTypeExponentialHistogram} {
			got, err := namer.Build(otlptranslator.Metric{Name: semconv, Unit: "s", Type: typ})
			if err != nil || got != h.Name {
				t.Errorf("%s (type %v) arrives as %q (%v); the profile reads %s", semconv, typ, got, err, h.Name)
			}
		}
	}
	labeler := otlptranslator.LabelNamer{}
	for attribute, want := range map[string]string{
		"gen_ai.request.model":  otelGenAI.ModelLabel,
		"gen_ai.operation.name": otelGenAI.ModelLabels[0],
		"error.type":            otelFailed.Name,
	} {
		if got, err := labeler.Build(attribute); err != nil || got != want {
			t.Errorf("attribute %s arrives as label %q (%v); the profile reads %s", attribute, got, err, want)
		}
	}
}
