package otelcol_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"github.com/prometheus/otlptranslator"
	"github.com/prometheus/prometheus/storage/remote/otlptranslator/prometheusremotewrite"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pmetric"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestAlertsReadTheNamesTheExporterWrites: each count the connector makes
// of a fatal line, named and labelled as the prometheus exporter names
// it (its collector.go: otlptranslator's MetricNamer with suffixes, its
// default, over prometheusremotewrite.TranslatorMetricFromOtelMetric, and
// LabelNamer for each attribute), is the series the alerts on fatal
// lines select and the labels they keep.
func TestAlertsReadTheNamesTheExporterWrites(t *testing.T) {
	data := build(t, specs["fleet"])
	f := countconnector.NewFactory()
	sink := new(consumertest.MetricsSink)
	c, err := f.CreateLogsToMetrics(context.Background(), connectortest.NewNopSettings(f.Type()), componentConfig(t, data, "connectors::count/slogen", f), sink)
	if err != nil {
		t.Fatal(err)
	}
	written := map[string][]string{} // Prometheus name: label names
	for i, l := range testenv.FatalLines {
		svc := serviceOf[l.Runtime]
		if err := c.ConsumeLogs(context.Background(), podLogs(svc, svc+"-"+string(rune('0'+i)), l.Line)); err != nil {
			t.Fatal(err)
		}
	}
	namer, labeller := otlptranslator.MetricNamer{WithMetricSuffixes: true}, otlptranslator.LabelNamer{}
	for _, md := range sink.AllMetrics() {
		forEachMetric(md, func(m pmetric.Metric) {
			name, err := namer.Build(prometheusremotewrite.TranslatorMetricFromOtelMetric(m))
			if err != nil {
				t.Fatal(err)
			}
			for k := range m.Sum().DataPoints().At(0).Attributes().All() {
				label, err := labeller.Build(k)
				if err != nil {
					t.Fatal(err)
				}
				written[name] = append(written[name], label)
			}
		})
	}
	for alert, event := range gpualerts.LogEvents {
		labels, ok := written[gpualerts.LogCountMetric(event)]
		if !ok {
			t.Errorf("%s reads %s; the exporter writes %v", alert, gpualerts.LogCountMetric(event), slices.Sorted(maps.Keys(written)))
			continue
		}
		for _, keep := range gpualerts.LogIdentity {
			if !slices.Contains(labels, keep) {
				t.Errorf("%s keeps %s; %s has %s", alert, keep, gpualerts.LogCountMetric(event), strings.Join(labels, ", "))
			}
		}
	}
}

func forEachMetric(md pmetric.Metrics, do func(pmetric.Metric)) {
	for _, rm := range md.ResourceMetrics().All() {
		for _, sm := range rm.ScopeMetrics().All() {
			for _, m := range sm.Metrics().All() {
				do(m)
			}
		}
	}
}
