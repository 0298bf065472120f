package otelcol_test

import (
	"context"
	"testing"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/spanmetricsconnector"
	"github.com/prometheus/otlptranslator"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/pmetric"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/slogen-dev/slogen/internal/plan"
)

// TestSpanMetricsReachPrometheusAsNamed runs the span metrics connector
// as the fragment configures it on a vLLM request span, then names its
// duration histogram and labels as the prometheus exporter's default
// translation does (prometheus/otlptranslator): the names the dashboard
// queries.
func TestSpanMetricsReachPrometheusAsNamed(t *testing.T) {
	data := build(t, specs["vllm"])
	f := spanmetricsconnector.NewFactory()
	cfg := componentConfig(t, data, "connectors::span_metrics/slogen", f)
	cfg.(*spanmetricsconnector.Config).MetricsFlushInterval = 100 * time.Millisecond // not the minute it waits by default
	sink := new(consumertest.MetricsSink)
	c, err := f.CreateTracesToMetrics(context.Background(), connectortest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Shutdown(context.Background()) }()
	if err := c.ConsumeTraces(context.Background(), requestSpan("chat", "llm_request", 3*time.Second)); err != nil {
		t.Fatal(err)
	}
	m := waitForHistogram(t, sink)
	namer := otlptranslator.NewMetricNamer("", otlptranslator.UnderscoreEscapingWithSuffixes)
	name, err := namer.Build(otlptranslator.Metric{Name: m.Name(), Unit: m.Unit(), Type: otlptranslator.MetricTypeHistogram})
	if err != nil {
		t.Fatal(err)
	}
	if name != plan.SpanDuration {
		t.Errorf("the prometheus exporter names %s (unit %s) %s, the dashboard reads %s", m.Name(), m.Unit(), name, plan.SpanDuration)
	}
	labels := otlptranslator.LabelNamer{}
	got := map[string]string{}
	for k, v := range m.Histogram().DataPoints().At(0).Attributes().All() {
		l, err := labels.Build(k)
		if err != nil {
			t.Fatal(err)
		}
		got[l] = v.Str()
	}
	if got[plan.SpanService] != "chat" || got[plan.SpanName] != "llm_request" {
		t.Errorf("labels %v, want %s=chat and %s=llm_request", got, plan.SpanService, plan.SpanName)
	}
}

// requestSpan is one span of a service, as the runtime writes it.
func requestSpan(service, name string, took time.Duration) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", service)
	s := rs.ScopeSpans().AppendEmpty().Spans().AppendEmpty()
	s.SetName(name)
	s.SetKind(ptrace.SpanKindServer)
	s.SetTraceID(pcommon.TraceID{1, 2, 3})
	s.SetSpanID(pcommon.SpanID{4, 5, 6})
	start := time.Unix(1_700_000_000, 0)
	s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
	s.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(took)))
	return td
}

// waitForHistogram is the first duration histogram the connector
// flushes (every metrics_flush_interval).
func waitForHistogram(t *testing.T, sink *consumertest.MetricsSink) pmetric.Metric {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, md := range sink.AllMetrics() {
			for _, rm := range md.ResourceMetrics().All() {
				for _, sm := range rm.ScopeMetrics().All() {
					for _, m := range sm.Metrics().All() {
						if m.Type() == pmetric.MetricTypeHistogram {
							return m
						}
					}
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the span metrics connector flushed no histogram")
	return pmetric.Metric{}
}
