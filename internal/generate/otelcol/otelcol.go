// Package otelcol writes an OpenTelemetry Collector configuration
// fragment for the services that ask for one (a spec's collector block):
// tail sampling that keeps the traces of requests that broke an SLO's
// threshold, span metrics taken before sampling, and counts of the
// runtime's fatal log lines per pod. The receivers and exporters are the
// user's, named by Receiver, TraceExporter and MetricsExporter: the
// Collector merges this file with theirs (docs/traces-logs.md).
package otelcol

import (
	"bytes"
	"math"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
)

// File is the fragment's name: in a service's directory when it is built
// alone, at the output's root for a fleet.
const File = "otelcol.yaml"

// The user's components the fragment's pipelines name.
const (
	// Receiver takes OTLP spans and logs from the runtimes (and the
	// filelog receiver's or agents' logs).
	Receiver = "otlp"
	// TraceExporter sends the kept traces to the trace store.
	TraceExporter = "otlp/traces"
	// MetricsExporter exposes span metrics and log counts to Prometheus.
	MetricsExporter = "prometheus"
)

// Component and pipeline names of the fragment, all under slogen's
// prefix so that they cannot clash with the user's.
const (
	sampler      = "tail_sampling/slogen"
	fanOut       = "forward/slogen"
	spanMetrics  = "span_metrics/slogen"
	logCounts    = "count/slogen"
	tracesIn     = "traces/slogen"
	tracesKept   = "traces/slogen-sampled"
	tracesTimed  = "traces/slogen-spanmetrics"
	spanMetricsP = "metrics/slogen-spans"
	logsIn       = "logs/slogen"
	logMetricsP  = "metrics/slogen-logs"
)

// Build writes the fragment for the services that opted in (a spec's
// collector block), in the order given; nil when none did, or when no
// runtime of theirs writes spans or log lines slogen knows.
func Build(services []model.Service) ([]byte, error) {
	var in []model.Service
	for _, svc := range services {
		if svc.Collector != nil {
			in = append(in, svc)
		}
	}
	c, ok := configFor(in)
	if !ok {
		return nil, nil
	}
	return marshal(c)
}

type config struct {
	Connectors map[string]any `yaml:"connectors"`
	Processors map[string]any `yaml:"processors,omitempty"`
	Service    struct {
		Pipelines map[string]pipeline `yaml:"pipelines"`
	} `yaml:"service"`
}

type pipeline struct {
	Receivers  []string `yaml:"receivers,flow"`
	Processors []string `yaml:"processors,flow,omitempty"`
	Exporters  []string `yaml:"exporters,flow"`
}

// configFor is the fragment's configuration, and whether it holds
// anything: the log counts of the runtimes that write fatal lines, and
// the sampling of those that write spans.
func configFor(services []model.Service) (config, bool) {
	c := config{Connectors: map[string]any{}}
	c.Service.Pipelines = map[string]pipeline{}
	if logs := counts(services); len(logs) > 0 {
		c.Connectors[logCounts] = map[string]any{"logs": logs}
		c.Service.Pipelines[logsIn] = pipeline{Receivers: []string{Receiver}, Exporters: []string{logCounts}}
		c.Service.Pipelines[logMetricsP] = pipeline{Receivers: []string{logCounts}, Exporters: []string{MetricsExporter}}
	}
	if ts := sampling(services); len(ts.Policies) > 0 {
		c.Processors = map[string]any{sampler: ts}
		c.Connectors[fanOut] = struct{}{}
		c.Connectors[spanMetrics] = spanMetricsConfig()
		c.Service.Pipelines[tracesIn] = pipeline{Receivers: []string{Receiver}, Exporters: []string{fanOut}}
		c.Service.Pipelines[tracesTimed] = pipeline{Receivers: []string{fanOut}, Exporters: []string{spanMetrics}}
		c.Service.Pipelines[tracesKept] = pipeline{Receivers: []string{fanOut}, Processors: []string{sampler}, Exporters: []string{TraceExporter}}
		c.Service.Pipelines[spanMetricsP] = pipeline{Receivers: []string{spanMetrics}, Exporters: []string{MetricsExporter}}
	}
	return c, len(c.Service.Pipelines) > 0
}

func marshal(c config) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(genfile.Header)
	b.WriteString("# Merge with your receivers (" + Receiver + ") and exporters (" + TraceExporter + ", " + MetricsExporter + "):\n")
	b.WriteString("# otelcol --config your.yaml --config " + File + " (docs/traces-logs.md).\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

// seconds writes d as the Collector reads durations, without Go's zero
// units: 30s, 1m30s, and 1m or 1h rather than 1m0s or 1h0m0s.
func seconds(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// ceil rounds a count up, at least 1.
func ceil(f float64) int { return max(1, int(math.Ceil(f))) }
