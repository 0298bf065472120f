package otelcol_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/spanmetricsconnector"
	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/tailsamplingprocessor"
	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/connector/forwardconnector"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/exporter/exportertest"
	collector "go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/otelcol/otelcoltest"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/receivertest"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/generate/otelcol"
	"github.com/slogen-dev/slogen/internal/spec"
)

// The Collector's own components, at one release (v0.161.0), prove the
// fragment: this file and its kin are the only importers of Collector
// packages, and only in tests (TestSlogenImportsNoCollector).

// userSide stands in for the receiver and exporters the fragment leaves
// to the user, under the names it reads: nops of the Collector's test
// packages, since what is proven is slogen's part.
var userSide = map[string]any{
	"receivers": map[string]any{otelcol.Receiver: map[string]any{}},
	"exporters": map[string]any{otelcol.TraceExporter: map[string]any{}, otelcol.MetricsExporter: map[string]any{}},
}

func factories(t *testing.T) collector.Factories {
	t.Helper()
	f, err := otelcoltest.NopFactories()
	if err != nil {
		t.Fatal(err)
	}
	add(t, f.Receivers, nopReceiver("otlp"))
	add(t, f.Exporters, nopExporter("otlp"), nopExporter("prometheus"))
	add(t, f.Processors, tailsamplingprocessor.NewFactory())
	add(t, f.Connectors, forwardconnector.NewFactory(), spanmetricsconnector.NewFactory(), countconnector.NewFactory())
	return f
}

func add[F component.Factory](t *testing.T, m map[component.Type]F, fs ...F) {
	t.Helper()
	for _, f := range fs {
		m[f.Type()] = f
	}
}

func nopReceiver(typ string) receiver.Factory {
	nop := receivertest.NewNopFactory()
	return receiver.NewFactory(component.MustNewType(typ), func() component.Config { return &struct{}{} },
		receiver.WithTraces(func(ctx context.Context, s receiver.Settings, c component.Config, next consumer.Traces) (receiver.Traces, error) {
			return nop.CreateTraces(ctx, s, c, next)
		}, component.StabilityLevelStable),
		receiver.WithLogs(func(ctx context.Context, s receiver.Settings, c component.Config, next consumer.Logs) (receiver.Logs, error) {
			return nop.CreateLogs(ctx, s, c, next)
		}, component.StabilityLevelStable))
}

func nopExporter(typ string) exporter.Factory {
	nop := exportertest.NewNopFactory()
	return exporter.NewFactory(component.MustNewType(typ), func() component.Config { return &struct{}{} },
		exporter.WithTraces(func(ctx context.Context, s exporter.Settings, c component.Config) (exporter.Traces, error) {
			return nop.CreateTraces(ctx, s, c)
		}, component.StabilityLevelStable),
		exporter.WithMetrics(func(ctx context.Context, s exporter.Settings, c component.Config) (exporter.Metrics, error) {
			return nop.CreateMetrics(ctx, s, c)
		}, component.StabilityLevelStable))
}

// build generates the fragment of the services of a spec.
func build(t *testing.T, cue string) []byte {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(cue)})
	if err != nil {
		t.Fatal(err)
	}
	data, err := otelcol.Build(res.Spec.Services)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// fragment decodes a generated fragment.
func fragment(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return m
}

// load merges the fragment with the user's side, as the Collector merges
// two --config files, and loads and validates it with the Collector's own
// loader.
func load(t *testing.T, data []byte) *collector.Config {
	t.Helper()
	m := fragment(t, data)
	for k, v := range userSide {
		m[k] = v
	}
	merged, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(file, merged, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := otelcoltest.LoadConfigAndValidate(file, factories(t))
	if err != nil {
		t.Fatalf("the Collector refuses the fragment: %v\n%s", err, data)
	}
	return cfg
}

// componentConfig is the fragment's configuration of one component, as
// its factory decodes it.
func componentConfig(t *testing.T, data []byte, path string, f component.Factory) component.Config {
	t.Helper()
	sub, err := confmap.NewFromStringMap(fragment(t, data)).Sub(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := f.CreateDefaultConfig()
	if err := sub.Unmarshal(cfg); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg
}
