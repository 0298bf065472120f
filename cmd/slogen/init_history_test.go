package main

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// The history init is proven against: three days of two runtimes, as
// their exporters name and label them, and dcgm-exporter's GPUs, every 5
// minutes up to a minute ago. Each histogram's share of requests within
// each boundary is fixed (within), so the test knows what was met.

const (
	historyDays  = 3
	historyEvery = 5 * time.Minute
)

// counter is a series whose value grows at rate per second, and at
// burst per second during the incident.
type counter struct {
	series      string
	rate, burst float64
}

// sglangIncident: one hour of SGLang aborting half its requests, on the second
// day.
func sglangIncident(start time.Time) (time.Time, time.Time) {
	from := start.Add(30 * time.Hour)
	return from, from.Add(time.Hour)
}

// value is the counter's value at t, the history having started at start.
func (c counter) value(start, t time.Time) float64 {
	v := c.rate * t.Sub(start).Seconds()
	from, to := sglangIncident(start)
	if c.burst > 0 && t.After(from) {
		v += (c.burst - c.rate) * math.Min(t.Sub(from).Seconds(), to.Sub(from).Seconds())
	}
	return v
}

// histogram writes a histogram's _bucket and _count counters: rate
// requests a second, the share within each le as given.
func histogram(name, labels string, rate float64, within map[string]float64) []counter {
	les := make([]string, 0, len(within))
	for le := range within {
		les = append(les, le)
	}
	sort.Strings(les)
	out := []counter{{series: fmt.Sprintf("%s_count{%s}", name, labels), rate: rate}}
	for _, le := range les {
		out = append(out, counter{series: fmt.Sprintf(`%s_bucket{%s,le="%s"}`, name, labels, le), rate: rate * within[le]})
	}
	return append(out, counter{series: fmt.Sprintf(`%s_bucket{%s,le="+Inf"}`, name, labels), rate: rate})
}

// vLLM's TTFT: 99.6 % within 0.5 s, its smallest boundary that holds
// 99 %.
var vllmTTFTWithin = map[string]float64{
	"0.001": 0, "0.005": 0.01, "0.01": 0.05, "0.02": 0.1, "0.04": 0.3, "0.06": 0.6, "0.08": 0.8, "0.1": 0.9,
	"0.25": 0.985, "0.5": 0.996, "0.75": 0.998, "1.0": 0.999, "2.5": 1, "5.0": 1, "7.5": 1, "10.0": 1,
	"20.0": 1, "40.0": 1, "80.0": 1, "160.0": 1, "640.0": 1, "2560.0": 1,
}

// vLLM's end-to-end latency, with boundaries of its operator's choosing
// (not vLLM's defaults): 99.3 % within 8 s.
var vllmE2EWithin = map[string]float64{"1.0": 0.5, "2.0": 0.9, "4.0": 0.97, "8.0": 0.993, "16.0": 0.999, "32.0": 1, "64.0": 1}

// SGLang's TTFT: 99.2 % within 0.8 s.
var sglangTTFTWithin = map[string]float64{
	"0.1": 0.2, "0.2": 0.6, "0.4": 0.95, "0.6": 0.985, "0.8": 0.992, "1.0": 0.996, "2.0": 0.999, "4.0": 1,
	"6.0": 1, "8.0": 1, "10.0": 1, "20.0": 1, "40.0": 1, "60.0": 1, "80.0": 1, "100.0": 1, "200.0": 1, "400.0": 1,
}

const (
	vllmModel   = "meta-llama/Llama-3.1-8B-Instruct"
	sglangModel = "Qwen/Qwen2.5-Coder-7B-Instruct"
)

// counters are every series of the history.
func counters() []counter {
	var out []counter
	for i, pod := range []string{"vllm-chat-0", "vllm-chat-1"} {
		target := fmt.Sprintf(`job="vllm-chat",namespace="inference",pod="%s",instance="10.0.1.%d:8000"`, pod, i+1)
		withModel := target + `,model_name="` + vllmModel + `"`
		http := target + `,handler="/v1/chat/completions",method="POST"`
		out = append(out,
			counter{series: "http_requests_total{" + http + `,status="2xx"}`, rate: 9.996},
			counter{series: "http_requests_total{" + http + `,status="5xx"}`, rate: 0.004})
		out = append(out, histogram("vllm:time_to_first_token_seconds", withModel, 10, vllmTTFTWithin)...)
		out = append(out, histogram("vllm:e2e_request_latency_seconds", withModel, 10, vllmE2EWithin)...)
	}
	sg := `job="sglang-code",namespace="inference",pod="sglang-code-0",instance="10.0.2.1:30000",model_name="` + sglangModel + `"`
	out = append(out,
		counter{series: "sglang:num_requests_total{" + sg + "}", rate: 5},
		counter{series: "sglang:num_aborted_requests_total{" + sg + "}", rate: 0.002, burst: 2.5})
	return append(out, histogram("sglang:time_to_first_token_seconds", sg, 5, sglangTTFTWithin)...)
}

// gpus are dcgm-exporter's frame-buffer series: one H100 per vLLM pod, an
// L40S for SGLang, and an idle one.
func gpus() []string {
	gpu := func(uuid, model, host, pod string) string {
		s := fmt.Sprintf(`DCGM_FI_DEV_FB_USED{job="dcgm-exporter",namespace="gpu-operator",pod="dcgm-exporter-%s",instance="%s:9400",gpu="0",UUID="%s",modelName="%s",Hostname="%s"`, host, host, uuid, model, host)
		if pod != "" {
			s += fmt.Sprintf(`,exported_pod="%s",exported_namespace="inference"`, pod)
		}
		return s + "}"
	}
	return []string{
		gpu("GPU-0a", "NVIDIA H100 80GB HBM3", "gpu-node-1", "vllm-chat-0"),
		gpu("GPU-0b", "NVIDIA H100 80GB HBM3", "gpu-node-2", "vllm-chat-1"),
		gpu("GPU-0c", "NVIDIA L40S", "gpu-node-3", "sglang-code-0"),
		gpu("GPU-0d", "NVIDIA L40S", "gpu-node-4", ""),
	}
}

// openMetrics writes the history, ending a minute before now.
func openMetrics(now time.Time) string {
	var b strings.Builder
	end := now.Add(-time.Minute)
	start := end.Add(-historyDays * 24 * time.Hour)
	cs := counters()
	// OpenMetrics wants each family's series together.
	sort.Slice(cs, func(i, j int) bool { return cs[i].series < cs[j].series })
	for _, c := range cs {
		for t := start; !t.After(end); t = t.Add(historyEvery) {
			fmt.Fprintf(&b, "%s %g %d\n", c.series, c.value(start, t), t.Unix())
		}
	}
	for _, g := range gpus() {
		for t := start; !t.After(end); t = t.Add(historyEvery) {
			fmt.Fprintf(&b, "%s 40000 %d\n", g, t.Unix())
		}
	}
	b.WriteString("# EOF\n")
	return b.String()
}
