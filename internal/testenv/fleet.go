package testenv

import (
	"fmt"
	"strings"
)

// Fleet is a CUE spec of n vLLM services with three SLOs each and no gpu
// block: the fleet slogen's build speed is measured on, beside Sloth's
// generate of the same SLOs (docs/benchmarks.md).
func Fleet(n int) []byte {
	var b strings.Builder
	b.WriteString("package slo\n\n")
	for i := range n {
		fmt.Fprintf(&b, `services: "svc-%04d": {
	team: "ml-platform"
	runtime: "vllm"
	model: "meta-llama/Llama-3.1-8B-Instruct"
	selector: {namespace: "inference", job: "vllm-%04d"}
	slos: {
		availability: {objective: 99.5}
		latency: {objective: 99, threshold: "2.5s"}
		ttft: {objective: 99, threshold: "1s"}
	}
}
`, i, i)
	}
	return []byte(b.String())
}

// SlothFleet is Fleet's SLOs as Sloth v0.16 specs (prometheus/v1), one
// YAML document per service, reading the series slogen's vLLM profile
// reads, for comparing the two tools' generate on the same work.
func SlothFleet(n int) []byte {
	var b strings.Builder
	for i := range n {
		sel := fmt.Sprintf(`job="vllm-%04d",namespace="inference"`, i)
		hist := func(name, le string) (bad, total string) {
			total = fmt.Sprintf("sum(rate(%s_count{%s}[{{.window}}]))", name, sel)
			good := fmt.Sprintf(`sum(rate(%s_bucket{%s,le="%s"}[{{.window}}]))`, name, sel, le)
			return total + " - " + good, total
		}
		latencyBad, latencyTotal := hist("vllm:e2e_request_latency_seconds", "2.5")
		ttftBad, ttftTotal := hist("vllm:time_to_first_token_seconds", "1.0")
		fmt.Fprintf(&b, "---\nversion: prometheus/v1\nservice: svc-%04d\nslos:\n", i)
		slo := func(name string, objective float64, bad, total string) {
			fmt.Fprintf(&b, "  - name: %s\n    objective: %g\n    sli:\n      events:\n        error_query: '%s'\n        total_query: '%s'\n"+
				"    alerting:\n      name: %sBurn\n      page_alert: {labels: {severity: critical}}\n      ticket_alert: {labels: {severity: warning}}\n",
				name, objective, bad, total, name)
		}
		slo("availability", 99.5, fmt.Sprintf(`sum(rate(http_requests_total{%s,status="5xx"}[{{.window}}]))`, sel),
			fmt.Sprintf("sum(rate(http_requests_total{%s}[{{.window}}]))", sel))
		slo("latency", 99, latencyBad, latencyTotal)
		slo("ttft", 99, ttftBad, ttftTotal)
	}
	return []byte(b.String())
}
