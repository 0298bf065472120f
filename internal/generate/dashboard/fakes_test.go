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
	"nim": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return nimMetrics(runtimeProfile(t, "nim"), served)
	},
	"lmdeploy": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return lmdeployMetrics(runtimeProfile(t, "lmdeploy"), served)
	},
	"kserve": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return kserveMetrics(runtimeProfile(t, "kserve"), served)
	},
	"trtllm": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return trtllmMetrics(runtimeProfile(t, "trtllm"), served)
	},
	"dynamo": func(t *testing.T, _ model.Service, served string) func(float64) string {
		return dynamoMetrics(runtimeProfile(t, "dynamo"), served)
	},
	"otel-genai": func(t *testing.T, svc model.Service, served string) func(float64) string {
		if nativeHistograms(svc) {
			return otelGenAINativeMetrics(t, runtimeProfile(t, "otel-genai"), served)
		}
		return otelGenAIMetrics(runtimeProfile(t, "otel-genai"), served)
	},
	"gaie": func(t *testing.T, svc model.Service, served string) func(float64) string {
		return eppMetrics(generation(t, svc), served)
	},
	"llm-d-router": func(t *testing.T, svc model.Service, served string) func(float64) string {
		return eppMetrics(generation(t, svc), served)
	},
	"llamacpp": func(t *testing.T, _ model.Service, _ string) func(float64) string {
		return llamacppMetrics()
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

// generation is the entry of the service's runtime for its version: the
// names its release exports.
func generation(t *testing.T, svc model.Service) profile.Profile {
	t.Helper()
	p, err := profile.For(svc.Runtime, svc.Version)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eppMetrics is an endpoint picker (GAIE or llm-d-router) of the
// generation p: requests by model and adapter, errors by code (some
// refused before scheduling, so not in the request counter), its
// histograms in Go's le format, token histograms, and the pool's gauges
// labelled by the pool's name.
func eppMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		ls := []string{fmt.Sprintf("model_name=%q", model)}
		for _, l := range p.ModelLabels {
			ls = append(ls, fmt.Sprintf("%s=%q", l, map[string]string{"target_model_name": "sql-lora", "priority": "0", "fairness_id": "tenant-a"}[l]))
		}
		l := strings.Join(ls, ",")
		m := p.Serving
		e.counter(m.Completed.Name, l, 20*t)
		e.family(m.Failures.Name, "counter", "errors by code")
		for _, c := range []rated{{"ModelServerError", 0.02}, {"ServiceUnavailable", 0.01}, {"BadRequest", 0.05}} {
			e.sample(m.Failures.Name, l+fmt.Sprintf(",error_code=%q", c.label), c.rate*t)
		}
		for _, h := range []struct {
			h      *profile.Histogram
			median float64
		}{{p.Latency, 6}, {p.TTFT, 0.4}, {p.ITL, 0.03}, {p.TPOT, 0.03}} {
			if h.h != nil {
				e.histogram(h.h.Name, l, dist{20 * t, h.median, les(h.h.Buckets, h.h.Le), h.h.Buckets})
			}
		}
		tokens := []float64{1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192}
		e.histogram(m.PromptLength, l, dist{20 * t, 900, les(tokens, goLe), tokens})
		e.histogram(strings.TrimSuffix(m.GenerationTokens.Name, "_sum"), l, dist{20 * t, 300, les(tokens, goLe), tokens})
		pool := `name="chat-pool"`
		e.gauge(m.KVCache.Name, pool, wave(t, 0.6, 0.2))
		e.gauge(m.Waiting.Name, pool, wave(t, 2, 2))
		e.gauge(m.ReadyEndpoints.Name, pool, 8)
		return e.b.String()
	}
}

// llamacppMetrics is llama-server with --metrics: no labels, no
// histogram, counters and gauges of tokens and slots.
func llamacppMetrics() func(t float64) string {
	return func(t float64) string {
		var e exposition
		e.counter("llamacpp:prompt_tokens_total", "", 2000*t)
		e.counter("llamacpp:prompt_seconds_total", "", 0.5*t)
		e.counter("llamacpp:tokens_predicted_total", "", 400*t)
		e.counter("llamacpp:tokens_predicted_seconds_total", "", 0.9*t)
		e.counter("llamacpp:n_decode_total", "", 90*t)
		e.gauge("llamacpp:prompt_tokens_seconds", "", wave(t, 4000, 500))
		e.gauge("llamacpp:predicted_tokens_seconds", "", wave(t, 45, 5))
		e.gauge("llamacpp:requests_processing", "", wave(t, 3, 1))
		e.gauge("llamacpp:requests_deferred", "", wave(t, 1, 1))
		e.gauge("llamacpp:n_busy_slots_per_decode", "", wave(t, 3, 0.5))
		return e.b.String()
	}
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

// nimMetrics is NIM for LLMs 1.x: vLLM's names without the prefix, a
// model_name label only, success and failure counters that exist from
// the start, and per-token gaps in time_per_output_token_seconds.
func nimMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf("model_name=%q", model)
		e.gauge("num_requests_running", l, wave(t, 8, 4))
		e.gauge("num_requests_waiting", l, wave(t, 2, 2))
		e.gauge("num_request_max", l, 64)
		e.gauge("gpu_cache_usage_perc", l, wave(t, 0.6, 0.2))
		e.counter("prompt_tokens_total", l, 16000*t)
		e.counter("generation_tokens_total", l, 4000*t)
		e.counter("request_success_total", l, 20*t)
		e.counter("request_failure_total", l, 0.02*t)
		e.family("request_finish_total", "counter", "finished requests by reason")
		for _, c := range []rated{{"stop", 15}, {"length", 5}, {"abort", 0.02}} {
			e.sample("request_finish_total", l+fmt.Sprintf(",finished_reason=%q", c.label), c.rate*t)
		}
		e.histogram("e2e_request_latency_seconds", l, dist{20 * t, 6, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("time_to_first_token_seconds", l, dist{20 * t, 0.15, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("time_per_output_token_seconds", l, dist{4000 * t, 0.03, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		tokens := oneTwoFive(100000)
		e.histogram("request_prompt_tokens", l, dist{20 * t, 800, les(tokens, pythonLe), tokens})
		return e.b.String()
	}
}

// lmdeployMetrics is LMDeploy's API server (≈0.16): model_name and engine
// labels, request counts since start in gauges, and a success counter
// per ResponseType of which only FINISH grows.
func lmdeployMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`engine="0",model_name=%q`, model)
		e.gauge("lmdeploy:num_requests_running", l, wave(t, 8, 4))
		e.gauge("lmdeploy:num_requests_waiting", l, wave(t, 2, 2))
		e.gauge("lmdeploy:gpu_cache_usage_perc", l, wave(t, 0.6, 0.2))
		e.gauge("lmdeploy:prefix_cache_hit_rate", l, wave(t, 0.4, 0.1))
		e.gauge("lmdeploy:num_requests_succeeded", l, 20*t)
		e.gauge("lmdeploy:num_requests_failed", l, 0.03*t)
		e.counter("lmdeploy:prompt_tokens_total", l, 16000*t)
		e.counter("lmdeploy:generation_tokens_total", l, 4000*t)
		e.family("lmdeploy:request_success_total", "counter", "requests that finished normally")
		for _, c := range []rated{{"ResponseType.FINISH", 20}, {"ResponseType.INTERNAL_ENGINE_ERROR", 0}} {
			e.sample("lmdeploy:request_success_total", l+fmt.Sprintf(",finished_reason=%q", c.label), c.rate*t)
		}
		e.histogram("lmdeploy:e2e_request_latency_seconds", l, dist{20 * t, 4, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("lmdeploy:time_to_first_token_seconds", l, dist{20 * t, 0.2, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("lmdeploy:time_per_output_token_seconds", l, dist{4000 * t, 0.02, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		e.histogram("lmdeploy:request_queue_time_seconds", l, dist{20 * t, 0.35, les(p.Queue.Buckets, p.Queue.Le), p.Queue.Buckets})
		tokens := oneTwoFive(32768)
		e.histogram("lmdeploy:request_prompt_tokens", l, dist{20 * t, 800, les(tokens, pythonLe), tokens})
		return e.b.String()
	}
}

// kserveMetrics is KServe's Python model server: a histogram per step of
// a request, labelled model_name, with prometheus_client's default
// buckets, and no counter.
func kserveMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf("model_name=%q", model)
		for _, step := range []struct {
			name   string
			median float64
		}{{"request_preprocess_seconds", 0.002}, {"request_predict_seconds", 0.08}, {"request_postprocess_seconds", 0.001}} {
			e.histogram(step.name, l, dist{50 * t, step.median, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		}
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
// labels, failures by reason, first-response latency in milliseconds, and
// a TensorRT-LLM backend's gauges, labelled with the backend's own model.
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
		backend := `model="tensorrt_llm",version="1"`
		e.family("nv_trt_llm_request_metrics", "gauge", "TRT LLM request metrics")
		for _, c := range []rated{{"active", 7}, {"max", 512}, {"scheduled", 4}, {"context", 1}, {"waiting", 2}} {
			e.sample("nv_trt_llm_request_metrics", backend+fmt.Sprintf(",request_type=%q", c.label), c.rate)
		}
		e.family("nv_trt_llm_kv_cache_block_metrics", "gauge", "TRT LLM KV cache block metrics")
		e.sample("nv_trt_llm_kv_cache_block_metrics", backend+`,kv_cache_block_type="fraction"`, wave(t, 0.5, 0.2))
		e.sample("nv_trt_llm_kv_cache_block_metrics", backend+`,kv_cache_block_type="used"`, 2000)
		return e.b.String()
	}
}

// trtllmMetrics is trtllm-serve with return_perf_metrics and
// enable_iter_perf_stats: prometheus_client in multiprocess mode, so the
// gauges carry a pid label, Python le values. The _created samples a
// single-process client writes beside each counter are there too, to
// show that no selector takes them for the counter.
func trtllmMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`engine_type="pytorch",model_name=%q`, model)
		e.gauge("trtllm_num_requests_running", l+`,pid="1"`, wave(t, 8, 4))
		e.gauge("trtllm_num_requests_waiting", l+`,pid="1"`, wave(t, 2, 2))
		e.gauge("trtllm_kv_cache_utilization", l+`,pid="1"`, wave(t, 0.6, 0.2))
		e.gauge("trtllm_gpu_memory_usage_bytes", l+`,pid="1"`, 60e9+1e6*t)
		e.counter("trtllm_prompt_tokens_total", l, 16000*t)
		e.counter("trtllm_prompt_cached_tokens_total", l, 6000*t)
		e.counter("trtllm_generation_tokens_total", l, 4000*t)
		e.family("trtllm_request_success", "counter", "finished requests")
		for _, c := range []rated{{"stop", 15}, {"length", 5}} {
			fl := l + fmt.Sprintf(`,finished_reason=%q`, c.label)
			e.sample("trtllm_request_success_total", fl, c.rate*t)
			e.sample("trtllm_request_success_created", fl, 1.7e9)
		}
		e.family("trtllm_request_error", "counter", "error responses")
		for _, c := range []rated{{"400", 0.2}, {"500", 0.05}} {
			el := l + fmt.Sprintf(`,http_code=%q`, c.label)
			e.sample("trtllm_request_error_total", el, c.rate*t)
			e.sample("trtllm_request_error_created", el, 1.7e9)
		}
		e.histogram("trtllm_e2e_request_latency_seconds", l, dist{20 * t, 1.2, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("trtllm_time_to_first_token_seconds", l, dist{20 * t, 0.15, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("trtllm_time_per_output_token_seconds", l, dist{20 * t, 0.03, les(p.TPOT.Buckets, p.TPOT.Le), p.TPOT.Buckets})
		e.histogram("trtllm_request_queue_time_seconds", l, dist{20 * t, 0.4, les(p.Queue.Buckets, p.Queue.Le), p.Queue.Buckets})
		return e.b.String()
	}
}

// dynamoMetrics is Dynamo's frontend (Rust, Go-style le values, the
// model lower-cased on its request metrics, as given on its model_*
// gauges) with a worker's KV gauge scraped into the same job, as the
// profile's note asks.
func dynamoMetrics(p profile.Profile, model string) func(t float64) string {
	return func(t float64) string {
		var e exposition
		l := fmt.Sprintf(`model=%q`, strings.ToLower(model))
		e.gauge("dynamo_frontend_inflight_requests", l, wave(t, 8, 4))
		e.gauge("dynamo_frontend_queued_requests", l, wave(t, 2, 2))
		e.gauge("dynamo_frontend_model_total_kv_blocks", fmt.Sprintf(`model=%q`, model), 92962)
		e.gauge("dynamo_component_gpu_cache_usage_percent", fmt.Sprintf(`dp_rank="0",dynamo_component="backend",model=%q`, model), wave(t, 0.6, 0.2))
		e.counter("dynamo_frontend_output_tokens_total", l, 4000*t)
		e.family("dynamo_frontend_requests_total", "counter", "LLM requests")
		for _, c := range []struct {
			labels string
			rate   float64
		}{{`status="success"`, 20}, {`error_type="validation",status="error"`, 0.2}, {`error_type="cancelled",status="error"`, 0.1}, {`error_type="internal",status="error"`, 0.05}} {
			e.sample("dynamo_frontend_requests_total", `endpoint="chat_completions",`+l+`,request_type="stream",`+c.labels, c.rate*t)
		}
		e.histogram("dynamo_frontend_request_duration_seconds", l, dist{20 * t, 5, les(p.Latency.Buckets, p.Latency.Le), p.Latency.Buckets})
		e.histogram("dynamo_frontend_time_to_first_token_seconds", l, dist{20 * t, 0.15, les(p.TTFT.Buckets, p.TTFT.Le), p.TTFT.Buckets})
		e.histogram("dynamo_frontend_inter_token_latency_seconds", l, dist{4000 * t, 0.02, les(p.ITL.Buckets, p.ITL.Le), p.ITL.Buckets})
		tokens := []float64{0, 100, 210, 430, 870, 1800, 3600, 7400, 15000, 31000, 63000, 130000}
		e.histogram("dynamo_frontend_input_sequence_tokens", l, dist{20 * t, 800, les(tokens, goLe), tokens})
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
