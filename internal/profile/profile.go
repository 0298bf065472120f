// Package profile knows what each inference runtime really exports: the
// metrics, labels, units and histogram buckets behind every SLO kind
// (docs/metrics.md, with sources). The spec package resolves SLIs with it.
package profile

import (
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// Profile is one runtime's metrics.
type Profile struct {
	// Runtime is the name a spec gives the runtime.
	Runtime string
	// Title is the runtime's name as its project writes it (vLLM), for
	// docs, runbooks and warnings.
	Title string
	// Since is the oldest release whose metrics this entry reads, as the
	// project numbers its releases ("0.8.0", "v1.0.0", "r24.08"): the
	// runtime's version floor. Where a runtime renamed its metrics, the
	// table holds an entry per generation, each from its Since (For picks
	// one by the spec's version). Empty where no release is known to lack
	// what the entry reads.
	Since string
	// ModelLabel is the label that carries the served model name; empty
	// when the runtime has none.
	ModelLabel string
	// ModelCase says on which metrics ModelLabel holds the model's name
	// lower-cased (Dynamo's); the zero value keeps it everywhere.
	ModelCase model.ModelCase
	// ModelLabels are the labels, besides ModelLabel, that the exporter
	// puts on every metric that has the model label and that an SLO may
	// be grouped by (Triton's model version).
	ModelLabels []string
	// Port and Path are the runtime's default metrics endpoint.
	Port int
	Path string
	// Availability is nil when the runtime counts no failures.
	Availability *Events
	Latency      *Histogram
	TTFT         *Histogram
	ITL          *Histogram
	TPOT         *Histogram
	Queue        *Histogram
	// Unsupported says, per kind the runtime cannot measure, why and what
	// to use instead.
	Unsupported map[model.Kind]string
	Serving     model.Serving
	// Note is shown by vet: the runtime version whose metrics slogen
	// reads, or the flag that turns them on.
	Note string
	// Preallocation is the flag with which the runtime claims a fixed
	// share of every GPU's memory at start, with its default; empty when
	// it claims none. That share holds the KV cache, so a GPU about 90 %
	// full and a KV cache filling under load are how it runs.
	Preallocation string
	// NoPrefixCache says why the runtime has no prefix-cache hit ratio,
	// where "exports none" would mislead.
	NoPrefixCache string
	// NativeHistograms says the runtime's histograms may arrive as
	// Prometheus native histograms (OTLP's exponential histograms), which
	// a spec chooses with histograms: "native" (Native).
	NativeHistograms bool
	// Gateway: the runtime is a gateway's endpoint picker, which routes
	// to a pool of engines and runs no GPU; its service's GPUs are the
	// pool's (model.Metrics.Gateway).
	Gateway bool
	// NoModel says why a spec of this runtime may not name a model (a
	// gateway's gauges describe its pool, not a model) and what to do
	// instead; empty where it may.
	NoModel string
	Advice  Advice
}

// Selector is one metric with fixed label matchers.
type Selector struct {
	Name     string
	Matchers []*labels.Matcher
	// HasModel reports whether the metric carries the model label.
	HasModel bool
	// Native says the metric is a native histogram whose observations
	// are the events: a query counts them with histogram_count.
	Native bool
}

// Events describes request and failure counters.
type Events struct {
	Total  []Selector // summed: every request
	Failed []Selector // summed: failed requests
	// Inputs are realistic series for tests: what each counter adds per
	// good and per bad request.
	Inputs []Input
}

// Input is a counter series used to synthesise test traffic.
type Input struct {
	Name      string
	Labels    map[string]string
	HasModel  bool
	Good, Bad float64
	// Native marks a part of a native histogram (model.Input.Native).
	Native bool
}

// Format is how an exporter writes histogram le values.
type Format int

// The le formats of the client libraries the runtimes use.
const (
	GoFormat     Format = iota // Go, Rust and C++ clients: "1", "2.5"
	PythonFormat               // prometheus_client on Prometheus 2: "1.0", "2.5"
)

// Histogram is a classic histogram.
type Histogram struct {
	Name string // without the _bucket suffix
	// Unit is how many seconds one unit of the histogram is (Triton: 0.001).
	Unit     float64
	Buckets  []float64 // upper bounds in the histogram's unit, ascending
	Format   Format
	HasModel bool
	// Matchers narrow the observations an SLO counts (OpenTelemetry's
	// request duration: the requests that did not fail).
	Matchers []*labels.Matcher
	// Labels are what the exporter puts on every series besides the model
	// label, for the series tests synthesise.
	Labels map[string]string
	// Native is a native histogram: one series per label set, no le
	// buckets, so Buckets is empty and any threshold can be asked of it.
	Native bool
	// Note is shown by vet: version caveats and how to enable the metric.
	Note string
}

// Histogram is the runtime's histogram for a latency kind; nil when it has
// none (Unsupported says why).
func (p Profile) Histogram(k model.Kind) *Histogram {
	return map[model.Kind]*Histogram{model.Latency: p.Latency, model.TTFT: p.TTFT, model.ITL: p.ITL, model.TPOT: p.TPOT, model.Queue: p.Queue}[k]
}

func eq(name, value string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchEqual, name, value)
}

func matchers(m ...*labels.Matcher) []*labels.Matcher { return m }

// Metrics is the profile as the model carries it, for generators.
func (p Profile) Metrics() model.Metrics {
	return model.Metrics{
		ModelLabel: p.ModelLabel,
		ModelCase:  p.ModelCase,
		Port:       p.Port,
		Path:       p.Path,
		Latency:    p.Latency.ref(),
		TTFT:       p.TTFT.ref(),
		ITL:        p.ITL.ref(),
		TPOT:       p.TPOT.ref(),
		Queue:      p.Queue.ref(),
		Serving:    p.Serving,
		Gateway:    p.Gateway,
	}
}

func (h *Histogram) ref() model.Histogram {
	if h == nil {
		return model.Histogram{}
	}
	return model.Histogram{Name: h.Name, Unit: h.Unit, Native: h.Native}
}
