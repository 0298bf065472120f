package dashboard

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// Fake runtime exporters: the real metric names, labels, types and le
// formats of docs/metrics.md, with counters that grow and
// gauges that move between scrapes. t is seconds since the fake started,
// plus a head start so that counters are never zero.

// rated is one series of a labelled counter and how fast it grows.
type rated struct {
	label string
	rate  float64
}

// ratedMetric is a metric of the runtime and how fast it grows.
type ratedMetric struct {
	metric model.Selector
	rate   float64
}

// fakes are an exporter for each runtime of the profile table, by name,
// serving the model served.
var fakes = map[string]func(t *testing.T, svc model.Service, served string) func(float64) string{
	"vllm": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return vllmMetrics(runtimeProfile(t, "vllm"), served)
	},
	"tgi": func(t *testing.T, _ model.Service, _ string) func(float64) string {
		return tgiMetrics(runtimeProfile(t, "tgi"))
	},
	"triton": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return tritonMetrics(runtimeProfile(t, "triton"), served)
	},
	"sglang": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return sglangMetrics(runtimeProfile(t, "sglang"), served)
	},
	"otel-genai": func(t *testing.T, svc model.Service, served string) func(float64) string {
		if nativeHistograms(svc) {
			return otelGenAINativeMetrics(t, runtimeProfile(t, "otel-genai"), served)
		}
		return otelGenAIMetrics(runtimeProfile(t, "otel-genai"), served)
	},
	profile.CustomRuntime: func(_ *testing.T, svc model.Service, _ string) func(float64) string {
		return customMetrics(svc)
	},
}

func TestEveryRuntimeHasAFake(t *testing.T) {
	for _, name := range profile.Names() {
		if fakes[name] == nil {
			t.Errorf("runtime %s has no fake exporter", name)
		}
	}
}

func runtimeProfile(t *testing.T, runtime string) profile.Profile {
	t.Helper()
	p, ok := profile.ByRuntime(runtime)
	if !ok {
		t.Fatalf("no profile for %s", runtime)
	}
	return p
}

// vllmMetrics is vLLM V1 (≈0.12): model_name and engine labels, Python
// le values, and the HTTP middleware's metrics without a model label.
func vllmMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`engine="0",model_name=%q`, model)
		e.gauge("vllm:num_requests_running", l, wave(t, 8, 4))
		e.gauge("vllm:num_requests_waiting", l, wave(t, 2, 2))
		e.gauge("vllm:kv_cache_usage_perc", l, wave(t, 0.6, 0.2))
		e.counter("vllm:prompt_tokens_total", l, 16000*t)
		e.counter("vllm:generation_tokens_total", l, 4000*t)
		e.counter("vllm:num_preemptions_total", l, 0.01*t)
		e.counter("vllm:prefix_cache_queries_total", l, 16000*t)
		e.counter("vllm:prefix_cache_hits_total", l, 6000*t)
		e.family("vllm:request_success_total", "counter", "finished requests")
		for _, c := range []rated{{"stop", 15}, {"length", 5}, {"abort", 0.2}} {
			e.sample("vllm:request_success_total", l+fmt.Sprintf(`,finished_reason=%q`, c.label), c.rate*t)
		}
		e.histogram("vllm:e2e_request_latency_seconds", l, dist{20 * t, 1.2, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("vllm:time_to_first_token_seconds", l, dist{20 * t, 0.15, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("vllm:inter_token_latency_seconds", l, dist{4000 * t, 0.03, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		e.histogram("vllm:request_time_per_output_token_seconds", l, dist{20 * t, 0.03, les(p.TPOT.Buckets, p.TPOT.Le), p.TPOT.Buckets})
		e.histogram("vllm:request_queue_time_seconds", l, dist{20 * t, 0.4, les(p.Queue.Buckets, p.Queue.Le), p.Queue.Buckets})
		tokens := oneTwoFive(131072)
		e.histogram("vllm:request_prompt_tokens", l, dist{20 * t, 800, les(tokens, pythonLe), tokens})
		e.family("http_requests_total", "counter", "HTTP responses by status class")
		for _, c := range []rated{{"2xx", 20}, {"4xx", 0.3}, {"5xx", 0.05}} {
			e.sample("http_requests_total", fmt.Sprintf(`handler="/v1/chat/completions",method="POST",status=%q`, c.label), c.rate*t)
		}
		return e.b.String()
	}
}

// sglangMetrics is SGLang with --enable-metrics and token histograms on.
func sglangMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`engine_type="unified",model_name=%q,pp_rank="0",tp_rank="0"`, model)
		e.gauge("sglang:num_running_reqs", l, wave(t, 16, 6))
		e.gauge("sglang:num_queue_reqs", l, wave(t, 3, 3))
		e.gauge("sglang:token_usage", l, wave(t, 0.7, 0.15))
		e.gauge("sglang:num_retracted_reqs", l, 0)
		e.gauge("sglang:cache_hit_rate", l, wave(t, 0.4, 0.1))
		e.counter("sglang:prompt_tokens_total", l, 30000*t)
		e.counter("sglang:generation_tokens_total", l, 6000*t)
		e.counter("sglang:num_requests_total", l, 30*t)
		e.counter("sglang:num_aborted_requests_total", l, 0.03*t)
		e.histogram("sglang:e2e_request_latency_seconds", l, dist{30 * t, 4, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("sglang:time_to_first_token_seconds", l, dist{30 * t, 0.3, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("sglang:inter_token_latency_seconds", l, dist{6000 * t, 0.02, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		tokens := []float64{100, 300, 1000, 3000, 10000, 30000, 100000, 300000, 1100000}
		e.histogram("sglang:prompt_tokens_histogram", l, dist{30 * t, 1000, les(tokens, pythonLe), tokens})
		return e.b.String()
	}
}

// tgiMetrics is TGI's router: no model label, counters without _total,
// Go-style le values.
func tgiMetrics(p profile.Profile) func(t float64) string {
	return func(t float64) string {
		var e exposition
		e.counter("tgi_request_count", "", 10*t)
		e.counter("tgi_request_success", "", 9.9*t)
		e.family("tgi_request_failure", "counter", "failed requests")
		for _, c := range []rated{{"validation", 0.08}, {"generation", 0.02}} {
			e.sample("tgi_request_failure", fmt.Sprintf("err=%q", c.label), c.rate*t)
		}
		e.histogram("tgi_request_duration", "", dist{10 * t, 2, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("tgi_request_mean_time_per_token_duration", "", dist{10 * t, 0.04, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		var input []float64
		for i := 1; i <= 100; i++ {
			input = append(input, float64(40*i))
		}
		e.histogram("tgi_request_input_length", "", dist{10 * t, 900, les(input, goLe), input})
		var generated []float64
		for i := 1; i <= 100; i++ {
			generated = append(generated, float64(81*i))
		}
		e.histogram("tgi_request_generated_tokens", "", dist{10 * t, 300, les(generated, goLe), generated})
		e.gauge("tgi_queue_size", "", wave(t, 2, 2))
		e.gauge("tgi_batch_current_size", "", wave(t, 12, 4))
		e.gauge("tgi_batch_current_max_tokens", "", wave(t, 40000, 15000))
		e.gauge("tgi_batch_max_total_tokens", "", 100000)
		return e.b.String()
	}
}

// tritonMetrics is Triton with histogram_latencies on: model and version
// labels, failures by reason, first-response latency in milliseconds.
func tritonMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`model=%q,version="1"`, model)
		e.counter("nv_inference_request_success", l, 50*t)
		e.family("nv_inference_request_failure", "counter", "failed requests")
		for _, c := range []rated{{"REJECTED", 0.01}, {"CANCELED", 0.01}, {"BACKEND", 0.005}, {"OTHER", 0}} {
			e.sample("nv_inference_request_failure", l+fmt.Sprintf(",reason=%q", c.label), c.rate*t)
		}
		e.gauge("nv_inference_pending_request_count", l, wave(t, 4, 3))
		e.histogram("nv_inference_first_response_histogram_ms", l, dist{50 * t, 120, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.gauge("nv_gpu_memory_used_bytes", `gpu_uuid="GPU-5d1a0f4e-0000-0000-0000-000000000007"`, 30e9+1e6*t)
		return e.b.String()
	}
}

// customMetrics is a prometheus_client app as its spec names it: the
// counters behind its SLIs as the SLIs' inputs describe them, its
// histograms with the client's default buckets plus the SLO thresholds,
// and whatever saturation metrics it names.
func customMetrics(svc model.Service) func(t float64) string {
	return func(t float64) string {
		var e exposition
		emitted := map[string]bool{}
		for _, h := range customHistograms(svc) {
			e.histogram(h.name, customLabels(svc, nil), h.dist(t))
			for _, suffix := range []string{"_bucket", "_count", "_sum"} {
				emitted[h.name+suffix] = true
			}
		}
		sliCounters(&e, svc, t, emitted)
		m := svc.Metrics.Serving
		for _, g := range []ratedMetric{{m.Running, 5}, {m.Waiting, 1}, {m.KVCache, 0.5}, {m.GPUMemory, 20e9}, {m.GPUMemoryReserved, 24e9}} {
			if !g.metric.IsZero() && !emitted[g.metric.Name] {
				e.gauge(g.metric.Name, customLabels(svc, g.metric.Matchers), wave(t, g.rate, g.rate/4))
			}
		}
		for _, c := range []ratedMetric{{m.PromptTokens, 8000}, {m.GenerationTokens, 2000}, {m.Completed, 40}, {m.OOM, 0.001}} {
			if !c.metric.IsZero() && !emitted[c.metric.Name] {
				e.counter(c.metric.Name, customLabels(svc, c.metric.Matchers), c.rate*t)
			}
		}
		return e.b.String()
	}
}

// sliCounters write the counters behind the service's SLIs, 40 good and
// 0.05 bad events a second, leaving out the histogram series already
// written; emitted gains their names.
func sliCounters(e *exposition, svc model.Service, t float64, emitted map[string]bool) {
	seen := map[string]bool{}
	var counters []string
	for _, slo := range svc.SLOs {
		for _, in := range slo.SLI.Inputs {
			name := in.Series.Get(labels.MetricName)
			if emitted[name] && !slices.Contains(counters, name) || seen[in.Series.String()] {
				continue
			}
			seen[in.Series.String()] = true
			if !slices.Contains(counters, name) {
				e.family(name, "counter", "synthetic "+name)
				counters = append(counters, name)
			}
			var ls []string
			in.Series.Range(func(l labels.Label) {
				if l.Name != labels.MetricName {
					ls = append(ls, fmt.Sprintf("%s=%q", l.Name, l.Value))
				}
			})
			e.sample(name, strings.Join(ls, ","), (40*in.Good+0.05*in.Bad)*t)
		}
	}
	for _, c := range counters {
		emitted[c] = true
	}
}

// customLabels are the app's model label and a selector's equalities.
func customLabels(svc model.Service, ms []*labels.Matcher) string {
	var ls []string
	if svc.Metrics.ModelLabel != "" && svc.Model != "" {
		ls = append(ls, fmt.Sprintf("%s=%q", svc.Metrics.ModelLabel, svc.Model))
	}
	for _, m := range ms {
		if m.Type == labels.MatchEqual && m.Name != labels.MetricName {
			ls = append(ls, fmt.Sprintf("%s=%q", m.Name, m.Value))
		}
	}
	return strings.Join(ls, ",")
}

// fakeHistogram is a histogram of a custom app and its median.
type fakeHistogram struct {
	name   string
	median float64
	bounds []float64
}

func (h fakeHistogram) dist(t float64) dist {
	return dist{40 * t, h.median, les(h.bounds, pythonLe), h.bounds}
}

// customHistograms have prometheus_client's default buckets, plus each
// SLO's threshold, which the SLI reads as a bucket.
func customHistograms(svc model.Service) []fakeHistogram {
	m := svc.Metrics
	var hs []fakeHistogram
	for _, h := range []struct {
		kind   model.Kind
		hist   model.Histogram
		median float64
	}{{model.Latency, m.Latency, 0.2}, {model.TTFT, m.TTFT, 0.1}, {model.ITL, m.ITL, 0.02}} {
		if h.hist.Name == "" {
			continue
		}
		bounds := slices.Clone(profile.PythonDefaultBuckets)
		for _, slo := range svc.SLOs {
			if b := slo.Threshold.Seconds() / h.hist.Unit; slo.Kind == h.kind && !slices.Contains(bounds, b) {
				bounds = append(bounds, b)
			}
		}
		slices.Sort(bounds)
		hs = append(hs, fakeHistogram{h.hist.Name, h.median, bounds})
	}
	return hs
}

// otelGenAIMetrics is a server following OpenTelemetry's GenAI
// conventions as the Collector's prometheus exporter exposes it: three
// histograms with the advised buckets, Go-style le values, error_type only
// on failed requests, which TTFT and TPOT do not observe. Its native
// twin is otelGenAINativeMetrics.
func otelGenAIMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`gen_ai_operation_name="chat",gen_ai_provider_name="openai",gen_ai_request_model=%q`, model)
		failed := l + `,error_type="500"`
		duration := func(count, median float64) dist {
			return dist{count, median, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets}
		}
		e.family(p.Latency.Name, "histogram", "request duration")
		for _, s := range []struct {
			labels string
			d      dist
		}{{l, duration(20*t, 3)}, {failed, duration(0.05*t, 0.5)}} {
			e.histogramSeries(p.Latency.Name, s.labels, s.d)
		}
		e.histogram(p.TTFT.Name, l, dist{20 * t, 0.3, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram(p.TPOT.Name, l, dist{20 * t, 0.04, les(p.TPOT.Buckets, p.TPOT.Le), p.TPOT.Buckets})
		return e.b.String()
	}
}
