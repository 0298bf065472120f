package dashboard

import (
	"fmt"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/generate/gpualerts"
	"github.com/slogen-dev/slogen/internal/genfile"
)

// engineHealth is whether the engine thrashes: requests preempted for
// lack of KV cache, and how much of the prompts the prefix cache serves.
// nil when the runtime exports neither (TGI, Triton).
func engineHealth(s scope) cog.Builder[dashboard.Panel] {
	pre := preemptions(s)
	hit, hasHit := prefixCacheHitRatio(s)
	if len(pre.queries) == 0 && !hasHit {
		return nil
	}
	qs, unit := pre.queries, pre.unit
	var titles, about []string
	if len(pre.queries) > 0 {
		titles, about = append(titles, pre.title), append(about, pre.about)
	}
	if hasHit {
		qs = append(qs, hit)
		titles, about = append(titles, "prefix-cache hit ratio"), append(about, prefixCacheAbout)
	}
	if len(pre.queries) == 0 {
		unit = units.PercentUnit
	}
	p := timeseriesPanel("Engine: "+strings.Join(titles, " and "), strings.Join(about, " "), unit, qs...).AxisSoftMin(0)
	if hasHit && len(pre.queries) > 0 {
		p.OverrideByQuery(refID(len(qs)-1), append(rightAxis(units.PercentUnit),
			dashboard.DynamicConfigValue{Id: "min", Value: 0}, dashboard.DynamicConfigValue{Id: "max", Value: 1}))
	}
	return withLimits(p, len(qs), pre.limits...)
}

const prefixCacheAbout = "The prefix-cache hit ratio, in percent: the share of prompt tokens the cache already held. A sudden fall means more prefill work for the same traffic."

// drawnPreemptions are the preemption series and how to present them.
type drawnPreemptions struct {
	queries, limits    []query
	unit, title, about string
}

// preemptions plots a preemption counter as InferencePreemptions reads it
// (per minute over the alert's window) against the alert's limit. A
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
			queries: []query{{sumBy(fmt.Sprintf("rate(%s[%s])", s.app(m), w)) + " * 60", "preemptions/min"}},
			limits:  []query{limitLine(n, fmt.Sprintf("%s above %s/min", gpualerts.Preemptions, num(n)))},
			unit:    "count:/min",
			title:   "preemptions",
			about:   fmt.Sprintf("Requests preempted for lack of KV cache per minute, over %s as %s reads them, against its limit (dashed red).", w, gpualerts.Preemptions),
		}
	}
	return drawnPreemptions{
		queries: []query{{sumBy(s.app(m)), "requests retracted now"}},
		unit:    "count:req",
		title:   "requests retracted now",
		about:   fmt.Sprintf("Requests retracted (preempted) at this moment, %s: a gauge, not a count of preemptions, so no rate and no alert.", m.Name),
	}
}

// prefixCacheHitRatio is the prefix cache's hit ratio: hit tokens over
// looked-up tokens where the runtime counts both (vLLM), or the mean of
// its processes' own ratio gauges (SGLang).
func prefixCacheHitRatio(s scope) (query, bool) {
	m := s.svc.Metrics.Serving
	switch {
	case !m.PrefixCacheHits.IsZero() && !m.PrefixCacheQueries.IsZero():
		return query{sumBy(rate(s.app(m.PrefixCacheHits))) + " / " + sumBy(rate(s.app(m.PrefixCacheQueries))), "prefix-cache hit ratio"}, true
	case !m.PrefixCacheHitRatio.IsZero():
		return query{fmt.Sprintf("avg(%s)", s.app(m.PrefixCacheHitRatio)), "prefix-cache hit ratio (mean of processes)"}, true
	}
	return query{}, false
}
