package model

import (
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Serving names the runtime's saturation and throughput metrics, for GPU
// and serving alerts and for dashboards. An empty name means the runtime
// does not export that signal; generators leave out what needs it.
type Serving struct {
	Running Selector // gauge: requests being executed
	Waiting Selector // gauge: requests queued
	// KVCache is a 0–1 gauge of KV-cache (token pool) usage.
	KVCache Selector
	// PromptTokens and GenerationTokens are counters of tokens.
	PromptTokens     Selector
	GenerationTokens Selector
	// Completed counts finished requests, for throughput.
	Completed Selector
	// Preemptions counts requests evicted for lack of KV cache.
	Preemptions Selector
	// PrefixCacheHits and PrefixCacheQueries count prompt tokens found in
	// the prefix cache and looked up in it: the ratio of their rates is
	// the hit ratio. PrefixCacheHitRatio is a 0–1 gauge of that ratio, for
	// runtimes that export only the ratio (SGLang).
	PrefixCacheHits, PrefixCacheQueries Selector
	PrefixCacheHitRatio                 Selector
	// Aborts counts aborted requests; it may carry matchers.
	Aborts Selector
	// Failures is a counter of failed requests and FailureClass the label
	// that classifies them (vLLM's HTTP status class, TGI's err, Triton's
	// reason).
	Failures     Selector
	FailureClass string
	// PromptLength is a histogram of prompt tokens per request, for
	// latency by request length.
	PromptLength string
	// QueueTime is a histogram of seconds spent waiting.
	QueueTime string
	// BatchSize and BatchMax give batch utilisation as their ratio.
	BatchSize, BatchMax Selector
	// OOM counts out-of-memory events; only apps that export one have it
	// (DCGM has none).
	OOM Selector
	// GPUMemory is bytes of GPU memory allocated by the runtime itself.
	GPUMemory Selector
	// GPUMemoryReserved is bytes reserved by the runtime's allocator, for
	// fragmentation against GPUMemory.
	GPUMemoryReserved Selector
	// PromptSeconds and GenerationSeconds count seconds spent on prompt
	// and generated tokens, for a runtime with no latency histogram
	// (llama.cpp): over PromptTokens' and GenerationTokens' rates they
	// are the mean time per token.
	PromptSeconds, GenerationSeconds Selector
	// ReadyEndpoints is a gateway's gauge of the engines in its pool
	// that can take requests.
	ReadyEndpoints Selector
}

// Selector is a metric name and the label matchers its series carry
// besides it (a custom app's oom may be
// inference_errors_total{type="oom"}). It is parsed once, where it enters
// the model; generators add their matchers to the tree and print it.
type Selector struct {
	Name     string
	Matchers []*labels.Matcher // without the name's
}

// Metric is the selector of a metric that needs no matchers.
func Metric(name string) Selector { return Selector{Name: name} }

// IsZero reports a metric the runtime does not export.
func (s Selector) IsZero() bool { return s.Name == "" }

// With is the selector's tree with more matchers, after its own.
func (s Selector) With(more ...*labels.Matcher) *parser.VectorSelector {
	ms := make([]*labels.Matcher, 0, len(s.Matchers)+len(more)+1)
	ms = append(append(append(ms, s.Matchers...), labels.MustNewMatcher(labels.MatchEqual, labels.MetricName, s.Name)), more...)
	return &parser.VectorSelector{Name: s.Name, LabelMatchers: ms}
}

// String prints the selector as PromQL.
func (s Selector) String() string { return s.With().String() }
