package dashboard

import (
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// engineHealth is whether the engine thrashes: requests preempted for
// lack of KV cache, and how much of the prompts the prefix cache serves.
// nil when the runtime exports neither (TGI, Triton).
func engineHealth(s scope) cog.Builder[dashboard.Panel] {
	pre := preemptions(s)
	hit, about := prefixCacheHitRatio(s)
	if len(pre.queries) == 0 && len(hit) == 0 {
		return nil
	}
	qs, unit := pre.queries, pre.unit
	var titles, abouts []string
	if len(pre.queries) > 0 {
		titles, abouts = append(titles, pre.title), append(abouts, pre.about)
	}
	if len(hit) > 0 {
		qs = append(qs, hit...)
		titles, abouts = append(titles, "prefix-cache hit ratio"), append(abouts, about)
	}
	if len(pre.queries) == 0 {
		unit = units.PercentUnit
	}
	p := timeseriesPanel("Engine: "+strings.Join(titles, " and "), strings.Join(abouts, " "), unit, qs...).AxisSoftMin(0)
	for i := len(pre.queries); i < len(qs); i++ {
		style := []dashboard.DynamicConfigValue{{Id: "min", Value: 0}, {Id: "max", Value: 1}}
		if len(pre.queries) > 0 {
			style = append(style, rightAxis(units.PercentUnit)...)
		}
		if i > len(pre.queries) { // the cold line
			style = append(style, dashed()...)
		}
		p.OverrideByQuery(refID(i), style)
	}
	return withLimits(p, len(qs), pre.limits...)
}

// drawnPreemptions are the preemption series and how to present them.
type drawnPreemptions struct {
	queries, limits    []query
	unit, title, about string
}

// preemptions plots a preemption counter as InferencePreemptions reads it
// (per minute over the alert's window, its series exactly: the model by
// name, not the runtime queries' "or none"), narrowed to the picked
// replicas, against the alert's limit. A
// runtime whose metric is a gauge of the requests preempted at this
// moment (SGLang's retracted requests) gets no alert, and the gauge is
// drawn as what it is, without the per-minute limit.
func preemptions(s scope) drawnPreemptions {
	m := s.svc.Metrics.Preemptions
	switch {
	case m.IsZero():
		return drawnPreemptions{}
	case s.hasAlert(gpualerts.Preemptions):
		n := s.svc.Thresholds.PreemptionsPerMinute
		w := genfile.Duration(gpualerts.EngineWindow)
		return drawnPreemptions{
			queries: []query{plot(gpualerts.PreemptionsPerMinute(s.svc, re(s.target(), "$"+s.target())), "preemptions/min")},
			limits:  []query{limitLine(n, fmt.Sprintf("%s above %s/min", gpualerts.Preemptions, num(n)))},
			unit:    "count:/min",
			title:   "preemptions",
			about:   fmt.Sprintf("Requests preempted for lack of KV cache per minute, over %s as %s reads them, against its limit (dashed red).", w, gpualerts.Preemptions),
		}
	}
	return drawnPreemptions{
		queries: []query{plot(sumBy(s.app(m)), "requests retracted now")},
		unit:    "count:req",
		title:   "requests retracted now",
		about:   fmt.Sprintf("Requests retracted (preempted) at this moment, %s: a gauge, not a count of preemptions, so no rate and no alert.", m.Name),
	}
}

// prefixCacheHitRatio is the prefix cache's hit ratio as
// PrefixCacheColdStart reads it, over the last hour from its recording,
// and dashed the line below which the alert calls the cache cold: its
// share of the same hour yesterday. A service without the alert gets the
// ratio of the runtime's counters (vLLM) or the mean of its processes'
// own ratio gauges (SGLang); none when it has neither.
func prefixCacheHitRatio(s scope) ([]query, string) {
	m := s.svc.Metrics.Serving
	switch {
	case s.hasAlert(gpualerts.PrefixCacheCold):
		ratio, cold := coldCacheLines(s)
		share := num(s.svc.Thresholds.PrefixCacheHitVsYesterday)
		return []query{plot(ratio, "prefix-cache hit ratio (1h)"), plot(cold, fmt.Sprintf("%s below: %s× yesterday's", gpualerts.PrefixCacheCold, share))},
			fmt.Sprintf("The share of prompt tokens the prefix cache already held, over the last hour, as %s reads it; dashed, %s× the same hour yesterday, below which it calls the cache cold.", gpualerts.PrefixCacheCold, share)
	case !m.PrefixCacheHits.IsZero() && !m.PrefixCacheQueries.IsZero():
		return []query{plot(pql.Div(sumBy(rate(s.app(m.PrefixCacheHits))), sumBy(rate(s.app(m.PrefixCacheQueries)))), "prefix-cache hit ratio")}, prefixCacheAbout
	case !m.PrefixCacheHitRatio.IsZero():
		return []query{plot(pql.Avg(s.app(m.PrefixCacheHitRatio)), "prefix-cache hit ratio (mean of processes)")}, prefixCacheAbout
	}
	return nil, ""
}

const prefixCacheAbout = "The prefix-cache hit ratio, in percent: the share of prompt tokens the cache already held. A sudden fall means more prefill work for the same traffic."
