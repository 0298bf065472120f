package profile

import (
	"errors"
	"fmt"
	"slices"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// CustomMetrics names the metrics of a prometheus_client app.
type CustomMetrics struct {
	Requests, Errors                string // counter selectors, e.g. inference_errors_total
	Latency, TTFT, ITL, TPOT, Queue string // histogram names without _bucket
	ModelLabel                      string
	Serving                         CustomServing
}

// CustomServing names a custom app's saturation metrics as its spec
// writes them: selectors, each optional.
type CustomServing struct {
	Running, Waiting, KVCache, PromptTokens, GenerationTokens, OOM, GPUMemory, GPUMemoryReserved, Preemptions string

	// The prefix cache's token counters, both or neither.
	PrefixCacheHits, PrefixCacheQueries string
}

// custom is the table's entry for apps that instrument themselves: what
// every such app shares. Custom adds the metrics its spec names.
var custom = Profile{
	Runtime:       CustomRuntime,
	Title:         CustomRuntime,
	Port:          8000,
	Path:          "/metrics",
	NoPrefixCache: "runtime custom exports no prefix-cache counters; name them in metrics.prefix_cache_hits and metrics.prefix_cache_queries",
	Advice:        Advice{MetricsGone: "The app names its own: compare them\nwith the spec's `metrics`."},
}

// Custom builds the profile of an app that instruments itself. Kinds whose
// metric is not named are unsupported, with a message saying which field
// to set.
func Custom(m CustomMetrics) (Profile, error) {
	p := custom
	p.ModelLabel, p.Unsupported = m.ModelLabel, map[slomodel.Kind]string{}
	var errs []error
	p.Serving, errs = customServing(m.Serving)
	if m.Requests != "" && m.Errors != "" {
		ev, err := customEvents(m.Requests, m.Errors)
		errs = append(errs, err)
		if err == nil {
			p.Availability = ev
			p.Serving.Failures = slomodel.Metric(ev.Failed[0].Name)
		}
	} else {
		p.Unsupported[slomodel.Availability] = "name the request and error counters in metrics.requests and metrics.errors"
	}
	p.Latency = customHistogram(m.Latency, p.Unsupported, slomodel.Latency, "metrics.latency")
	p.TTFT = customHistogram(m.TTFT, p.Unsupported, slomodel.TTFT, "metrics.ttft")
	p.ITL = customHistogram(m.ITL, p.Unsupported, slomodel.ITL, "metrics.itl")
	p.TPOT = customHistogram(m.TPOT, p.Unsupported, slomodel.TPOT, "metrics.tpot")
	p.Queue = customHistogram(m.Queue, p.Unsupported, slomodel.Queue, "metrics.queue")
	errs = append(errs, checkNames(m))
	if m.Queue != "" && m.Queue == m.Latency {
		errs = append(errs, fieldErrorf("metrics.queue", "%q is metrics.latency too; the queue histogram measures the wait before a request is scheduled, a part of its latency", m.Queue))
	}
	errs = append(errs, prefixCachePair(m.Serving))
	return p, errors.Join(errs...)
}

// prefixCachePair refuses one prefix-cache counter without the other: the
// hit ratio is the ratio of their rates.
func prefixCachePair(c CustomServing) error {
	switch {
	case c.PrefixCacheHits != "" && c.PrefixCacheQueries == "":
		return fieldErrorf("metrics.prefix_cache_hits", "needs metrics.prefix_cache_queries beside it, the counter of prompt tokens looked up in the prefix cache: the hit ratio is hits over queries")
	case c.PrefixCacheQueries != "" && c.PrefixCacheHits == "":
		return fieldErrorf("metrics.prefix_cache_queries", "needs metrics.prefix_cache_hits beside it, the counter of prompt tokens found in the prefix cache: the hit ratio is hits over queries")
	}
	return nil
}

// checkNames refuses histogram and label names Prometheus 2.42 cannot
// read; every rule and panel of the app carries them.
func checkNames(m CustomMetrics) error {
	var errs []error
	for _, h := range []struct{ field, name string }{{"metrics.latency", m.Latency}, {"metrics.ttft", m.TTFT}, {"metrics.itl", m.ITL}, {"metrics.tpot", m.TPOT}, {"metrics.queue", m.Queue}} {
		if h.name != "" && !promcompat.LegacyMetricName(h.name+"_bucket") {
			errs = append(errs, fieldErrorf(h.field, "%q is not a histogram name Prometheus 2.42 can read: letters, digits, underscores and colons, without _bucket", h.name))
		}
	}
	if m.ModelLabel != "" && !promcompat.LegacyLabelName(m.ModelLabel) {
		errs = append(errs, fieldErrorf("metrics.model_label", "%q is not a label name Prometheus 2.42 can read: letters, digits and underscores", m.ModelLabel))
	}
	return errors.Join(errs...)
}

// customServing reads each saturation metric as a selector the
// dashboards and serving alerts can use.
func customServing(c CustomServing) (slomodel.Serving, []error) {
	var s slomodel.Serving
	var errs []error
	for _, f := range []struct {
		field string
		sel   string
		to    *slomodel.Selector
	}{
		{"metrics.running", c.Running, &s.Running}, {"metrics.waiting", c.Waiting, &s.Waiting},
		{"metrics.kv_cache", c.KVCache, &s.KVCache}, {"metrics.prompt_tokens", c.PromptTokens, &s.PromptTokens},
		{"metrics.generation_tokens", c.GenerationTokens, &s.GenerationTokens}, {"metrics.oom", c.OOM, &s.OOM},
		{"metrics.gpu_memory", c.GPUMemory, &s.GPUMemory}, {"metrics.gpu_memory_reserved", c.GPUMemoryReserved, &s.GPUMemoryReserved},
		{"metrics.preemptions", c.Preemptions, &s.Preemptions},
		{"metrics.prefix_cache_hits", c.PrefixCacheHits, &s.PrefixCacheHits}, {"metrics.prefix_cache_queries", c.PrefixCacheQueries, &s.PrefixCacheQueries},
	} {
		if f.sel == "" {
			continue
		}
		sel, err := parseSelector(f.field, f.sel)
		errs = append(errs, err)
		*f.to = slomodel.Selector{Name: sel.Name, Matchers: sel.Matchers}
	}
	return s, errs
}

// FieldError is a problem with one field of a custom app's metrics block,
// such as "metrics.latency".
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

func fieldErrorf(field, format string, args ...any) error {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// customHistogram assumes prometheus_client's default buckets; a spec
// declares others under buckets.
func customHistogram(name string, unsupported map[slomodel.Kind]string, k slomodel.Kind, field string) *Histogram {
	if name == "" {
		unsupported[k] = "name the histogram in " + field
		return nil
	}
	return &Histogram{Name: name, Unit: 1, Buckets: PythonDefaultBuckets, Format: PythonFormat, HasModel: true}
}

func customEvents(requests, failures string) (*Events, error) {
	total, err := parseSelector("metrics.requests", requests)
	if err != nil {
		return nil, err
	}
	failed, err := parseSelector("metrics.errors", failures)
	if err != nil {
		return nil, err
	}
	return &Events{Total: []Selector{total}, Failed: []Selector{failed}, Inputs: eventInputs(total, failed)}, nil
}

// parseSelector reads a counter selector such as
// inference_requests_total{status="error"}.
func parseSelector(field, s string) (Selector, error) {
	e, err := promcompat.Parser().ParseExpr(s)
	if err != nil {
		return Selector{}, fieldErrorf(field, "%q is not a metric selector: %v", s, err)
	}
	vs, ok := e.(*parser.VectorSelector)
	if !ok || vs.Name == "" {
		return Selector{}, fieldErrorf(field, "%q must be a metric name with optional label matchers, like inference_errors_total{error_type=\"oom\"}", s)
	}
	if err := promcompat.LegacyNames(vs); err != nil {
		return Selector{}, fieldErrorf(field, "%v", err)
	}
	var ms []*labels.Matcher
	for _, m := range vs.LabelMatchers {
		if m.Name != labels.MetricName {
			ms = append(ms, m)
		}
	}
	return Selector{Name: vs.Name, Matchers: ms, HasModel: true}, nil
}

// eventInputs works out test series for a request counter and a failure
// counter. Separate metrics are easy: one counts everything, the other the
// failures. One metric split by a label (status="error") needs a good
// series that the failure matchers exclude; when slogen cannot build one it
// returns nil and the SLO goes untested.
func eventInputs(total, failed Selector) []Input {
	if total.Name != failed.Name {
		return []Input{
			{Name: total.Name, Labels: equalities(total.Matchers), HasModel: true, Good: 1, Bad: 1},
			{Name: failed.Name, Labels: equalities(failed.Matchers), HasModel: true, Bad: 1},
		}
	}
	bad := equalities(append(total.Matchers, failed.Matchers...))
	good := map[string]string{}
	for k, v := range bad {
		good[k] = v
	}
	// An equality the total shares (the service's selector, added to
	// both) pins the good series too: it is not what tells a failure apart.
	for _, m := range failed.Matchers {
		shared := slices.ContainsFunc(total.Matchers, func(t *labels.Matcher) bool { return t.String() == m.String() })
		if !shared || m.Type != labels.MatchEqual {
			good[m.Name] = "ok"
		}
	}
	if !matchesAll(total.Matchers, bad) || !matchesAll(total.Matchers, good) || matchesAll(failed.Matchers, good) || !matchesAll(failed.Matchers, bad) {
		return nil
	}
	return []Input{
		{Name: total.Name, Labels: good, HasModel: true, Good: 1},
		{Name: total.Name, Labels: bad, HasModel: true, Bad: 1},
	}
}

// equalities are the label values that equality matchers pin down.
func equalities(ms []*labels.Matcher) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		if m.Type == labels.MatchEqual {
			out[m.Name] = m.Value
		}
	}
	return out
}

func matchesAll(ms []*labels.Matcher, ls map[string]string) bool {
	for _, m := range ms {
		if !m.Matches(ls[m.Name]) {
			return false
		}
	}
	return true
}

// PythonDefaultBuckets are prometheus_client's default histogram buckets,
// which a custom app gets unless it passes its own.
var PythonDefaultBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}
