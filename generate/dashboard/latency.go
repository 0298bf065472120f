package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/model"
)

// latencyPanels are the latency quadrant: end-to-end, first-token and
// inter-token latency, and latency against prompt length, each only where
// the runtime exports the histogram.
func latencyPanels(s scope) []cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics
	return compact(
		percentiles(s, "End-to-end latency", "Time from request to last token, across the service.", m.Latency),
		percentiles(s, "Time to first token", "Time from request to first token: what a streaming user waits for.", m.TTFT),
		percentiles(s, "Inter-token latency", "Time between tokens of a response: how fast text streams.", m.ITL),
		latencyByLength(s),
	)
}

// percentiles plots P50, P95 and P99 of a histogram; nil when the runtime
// has none.
func percentiles(s scope, title, description string, h model.Histogram) cog.Builder[dashboard.Panel] {
	if h.Name == "" {
		return nil
	}
	return timeseriesPanel(title+" P50 / P95 / P99", description, units.Seconds,
		query{s.quantile(0.5, h), "P50"},
		query{s.quantile(0.95, h), "P95"},
		query{s.quantile(0.99, h), "P99"},
	).AxisSoftMin(0)
}

// latencyByLength sets P95 latency beside P95 prompt length. Runtimes
// export the two as separate histograms, so no query can split latency by
// length; plotted together they show whether long prompts drive latency.
func latencyByLength(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics
	if m.Latency.Name == "" || m.PromptLength == "" {
		return nil
	}
	tokens := model.Histogram{Name: m.PromptLength, Unit: 1}
	return timeseriesPanel("Latency vs prompt length (P95)",
		"P95 end-to-end latency (left) beside P95 prompt length in tokens (right). The runtime exports no joint histogram; "+
			"when both rise together, long inputs are the cause.",
		units.Seconds,
		query{s.quantile(0.95, m.Latency), "latency P95"},
		query{s.quantile(0.95, tokens), "prompt tokens P95"},
	).AxisSoftMin(0).OverrideByQuery(refID(1), rightAxis("count:tok"))
}

// compact drops the panels a runtime cannot fill.
func compact(ps ...cog.Builder[dashboard.Panel]) []cog.Builder[dashboard.Panel] {
	var out []cog.Builder[dashboard.Panel]
	for _, p := range ps {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}
