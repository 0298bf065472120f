package dashboard

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// latencyPanels are the latency quadrant: what a request waits for, then
// how fast its tokens stream, each drawing only the histograms the
// runtime exports.
func latencyPanels(s scope) builders {
	m := s.svc.Metrics
	request := []histogramOf{{model.Latency, "e2e", m.Latency}, {model.TTFT, "TTFT", m.TTFT}}
	if s.hasSLO(model.Queue) { // the queue's own alert reads its mean; a percentile needs an SLO to compare with
		request = append(request, histogramOf{model.Queue, "queue", m.Queue})
	}
	return compact(
		latencyPanel(s, "Request latency", "Time from request to last token (e2e), to first token (TTFT: what a streaming user waits for)"+
			" and, where an SLO bounds it, in the queue before scheduling.", request),
		latencyPanel(s, "Token latency", "Time between the tokens of a response (ITL, every gap weighed alike) and each request's mean time per output token (TPOT).",
			[]histogramOf{{model.ITL, "ITL", m.ITL}, {model.TPOT, "TPOT", m.TPOT}}),
		goodputPanel(s),
		timePerToken(s),
		whereTheTimeGoes(s),
	)
}

// timePerToken is the mean time per prompt and per generated token from
// the runtime's counters of tokens and of seconds, for a runtime with no
// latency histogram (llama.cpp): no percentile, but each process's
// speed, which falls as its slots fill.
func timePerToken(s scope) cog.Builder[dashboard.Panel] {
	m := s.svc.Metrics.Serving
	if s.svc.Metrics.Latency.Name != "" || s.svc.Metrics.TTFT.Name != "" || m.GenerationSeconds.IsZero() {
		return nil
	}
	t := s.target()
	per := func(seconds, tokens model.Selector) pql.Expr {
		return pql.Div(sumBy(rate(s.app(seconds)), t), sumBy(rate(s.app(tokens)), t))
	}
	qs := []query{plot(per(m.GenerationSeconds, m.GenerationTokens), s.targetLegend("per generated token"))}
	if !m.PromptSeconds.IsZero() {
		qs = append(qs, plot(per(m.PromptSeconds, m.PromptTokens), s.targetLegend("per prompt token")))
	}
	return timeseriesPanel("Mean time per token",
		"Seconds spent per generated token (each request's decoding speed) and per prompt token, per process, from the runtime's counters: it exports no latency histogram, so no percentile and no SLO.",
		units.Seconds, qs...).AxisSoftMin(0)
}

// histogramOf is the runtime's histogram of one SLO kind, and its short
// name in legends.
type histogramOf struct {
	kind model.Kind
	name string
	hist model.Histogram
}

// latencyPanel plots P50 and P99 of each histogram, and the percentile
// each SLO on it is about, against every such SLO's threshold: a
// percentile above its SLO's line is that SLO burning. nil when the
// runtime has none of the histograms. The axis is logarithmic, so that a
// median and a tail an order of magnitude apart both read.
func latencyPanel(s scope, title, description string, hs []histogramOf) cog.Builder[dashboard.Panel] {
	var qs []query
	var kinds []model.Kind
	for _, h := range mergeShared(hs) {
		qs = append(qs, s.quantiles(h)...)
		for _, slo := range splitSLOs(s.svc, h.kinds) {
			legend := s.kindLegend(fmt.Sprintf("%s %s P%s", slo.Name, h.name, rules.Percent(slo.Objective)), fmt.Sprintf("%s %s at its objective", slo.Name, h.name))
			qs = append(qs, plot(s.quantileBy(s.objective(slo), h.hist, &slo), sloLegend(slo, legend)))
		}
		kinds = append(kinds, h.kinds...)
	}
	if len(qs) == 0 {
		return nil
	}
	p := timeseriesPanel(title, description+" P50, P99 and the percentile of each SLO; dashed red: each SLO's threshold.", units.Seconds, qs...).
		ScaleDistribution(common.NewScaleDistributionConfigBuilder().Type(common.ScaleDistributionLog).Log(10))
	return withLimits(p, len(qs), s.sloLimits(kinds)...)
}

// sharedHistogram is one histogram drawn once for all the kinds it
// serves: TGI's mean time per token is its ITL and its TPOT.
type sharedHistogram struct {
	name  string
	hist  model.Histogram
	kinds []model.Kind
}

// mergeShared draws each exported histogram once.
func mergeShared(hs []histogramOf) []sharedHistogram {
	var out []sharedHistogram
	for _, h := range hs {
		if h.hist.Name == "" {
			continue
		}
		if i := slices.IndexFunc(out, func(o sharedHistogram) bool { return o.hist.Name == h.hist.Name }); i >= 0 {
			out[i].name += " = " + h.name
			out[i].kinds = append(out[i].kinds, h.kind)
			continue
		}
		out = append(out, sharedHistogram{h.name, h.hist, []model.Kind{h.kind}})
	}
	return out
}

// quantiles are the histogram's median, P99 and the percentile of every
// objective of the SLOs not split by group_by that bound one of its
// kinds, smallest first, across the service. A kind's dashboard cannot
// sort objectives it reads from recordings: it draws the median and P99,
// then each SLO's.
func (s scope) quantiles(h sharedHistogram) []query {
	var qs []query
	if !s.kind() {
		for _, q := range objectiveQuantiles(s.svc, h.kinds) {
			qs = append(qs, plot(s.quantile(ratio(q), h.hist), h.name+" P"+rules.Percent(q)))
		}
		return qs
	}
	for _, q := range []float64{0.5, 0.99} {
		qs = append(qs, plot(s.quantile(q, h.hist), h.name+" P"+num(q*100)))
	}
	for _, slo := range s.svc.SLOs {
		if len(slo.GroupBy) == 0 && len(bounds(slo, h.kinds)) > 0 {
			qs = append(qs, plot(s.quantileBy(s.objective(slo), h.hist, nil), fmt.Sprintf("%s %s at its objective", slo.Name, h.name)))
		}
	}
	return qs
}

// objectiveQuantiles are the median, P99 and every objective of the SLOs
// not split by group_by that bound one of the kinds, smallest first.
func objectiveQuantiles(svc model.Service, kinds []model.Kind) []*big.Rat {
	qs := []*big.Rat{big.NewRat(1, 2), big.NewRat(99, 100)}
	for _, slo := range svc.SLOs {
		if len(slo.GroupBy) == 0 && len(bounds(slo, kinds)) > 0 && !slices.ContainsFunc(qs, func(q *big.Rat) bool { return q.Cmp(slo.Objective) == 0 }) {
			qs = append(qs, slo.Objective)
		}
	}
	slices.SortFunc(qs, func(a, b *big.Rat) int { return a.Cmp(b) })
	return qs
}

// splitSLOs are the SLOs split by group_by that bound one of the kinds:
// each one's percentile is drawn per value, as its alerts read it, since
// one model's slow requests can hide in the service's percentile.
func splitSLOs(svc model.Service, kinds []model.Kind) []model.SLO {
	var out []model.SLO
	for _, slo := range svc.SLOs {
		if len(slo.GroupBy) > 0 && len(bounds(slo, kinds)) > 0 {
			out = append(out, slo)
		}
	}
	return out
}

// sloLimits are the thresholds the service's SLOs set on the kinds: a
// latency SLO's own, and each goodput SLO's bounds.
func (s scope) sloLimits(kinds []model.Kind) []query {
	var qs []query
	for _, slo := range s.svc.SLOs {
		for _, b := range bounds(slo, kinds) {
			legend := s.kindLegend(fmt.Sprintf("%s SLO: %s%% under %s", slo.Name, rules.Percent(slo.Objective), b.Threshold), slo.Name+" SLO: threshold")
			if slo.Kind == model.Goodput {
				legend = s.kindLegend(fmt.Sprintf("%s SLO: %s bound %s", slo.Name, model.BoundField(b.Kind), b.Threshold), fmt.Sprintf("%s SLO: %s bound", slo.Name, model.BoundField(b.Kind)))
			}
			qs = append(qs, plot(s.threshold(slo, b), legend))
		}
	}
	return qs
}

// bounds are the latencies an SLO bounds among the kinds: its threshold,
// or a goodput SLO's bounds of those kinds.
func bounds(slo model.SLO, kinds []model.Kind) []model.Bound {
	all := slo.Bounds
	if slo.Kind != model.Goodput {
		all = []model.Bound{{Kind: slo.Kind, Threshold: slo.Threshold}}
	}
	var out []model.Bound
	for _, b := range all {
		if slices.Contains(kinds, b.Kind) {
			out = append(out, b)
		}
	}
	return out
}

// hasSLO reports whether the service has an SLO of the kind.
func (s scope) hasSLO(k model.Kind) bool {
	return slices.ContainsFunc(s.svc.SLOs, func(slo model.SLO) bool { return slo.Kind == k })
}

// compact drops the panels a runtime cannot fill.
func compact(ps ...cog.Builder[dashboard.Panel]) builders {
	var out builders
	for _, p := range ps {
		if p != nil {
			out = append(out, p)
		}
	}
	return out
}
