package gpualerts

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// The prefix cache gone cold: its hit ratio over the last hour against
// the same hour yesterday, with traffic as it was. A fresh pod starts
// with an empty cache, but one that warms again within minutes dips the
// hour's ratio by a fraction, not by half; one that stays cold (a restart
// loop, prefix caching switched off, a router that lost its affinity)
// makes every prompt compute in full.

// hitRatioSignal reads the hit ratio from the runtime's token counters
// (rate() carries them across restarts), or from its own ratio gauge
// averaged over the hour and the replicas; nil when it has neither. With
// prefix caching switched off vLLM looks nothing up, so both counters
// stand still: the ratio reads zero then, not 0/0, which no comparison
// holds for.
func hitRatioSignal(svc model.Service) *signal {
	m := svc.Metrics
	over := func(fn string, m model.Selector, off time.Duration) pql.Expr {
		return pql.Call(fn, ranged(runtimeSelector(svc, m), DiagnosisWindow, off))
	}
	switch {
	case !m.PrefixCacheHits.IsZero() && !m.PrefixCacheQueries.IsZero():
		return &signal{PrefixCacheHitRatio, func(off time.Duration) pql.Expr {
			return pql.Div(pql.Sum(over("rate", m.PrefixCacheHits, off)),
				pql.Call("clamp_min", pql.Sum(over("rate", m.PrefixCacheQueries, off)), pql.Num(tinyRate)))
		}}
	case !m.PrefixCacheHitRatio.IsZero():
		return &signal{PrefixCacheHitRatio, func(off time.Duration) pql.Expr {
			return pql.Avg(over("avg_over_time", m.PrefixCacheHitRatio, off))
		}}
	}
	return nil
}

// tinyRate stands in for a rate of zero lookups a second: far below one
// token a day, so any lookup at all outweighs it.
const tinyRate = 1e-9

func (q quadrants) prefixCacheCold(svc model.Service) (alertDef, *Skip) {
	if q.hitRatio == nil {
		return alertDef{}, &Skip{PrefixCacheCold, noHitRatio(svc.Runtime)}
	}
	if q.throughput == nil {
		return alertDef{}, &Skip{PrefixCacheCold, "needs the throughput quadrant to tell a cold cache from a change in traffic"}
	}
	share := num(svc.Thresholds.PrefixCacheHitVsYesterday)
	return alertDef{
		expr: all(
			pql.Lt(ColdCacheLines(svc)),
			pql.Ge(recorded(svc, PrefixCacheHitRatio+dayAgo), pql.Num(PrefixCacheHitFloor)),
			pql.Ge(pql.Mul(recorded(svc, Throughput+dayAgo), pql.Num(60)), pql.Num(PrefixCacheMinPerMinute)),
			versus(svc, Throughput, parser.GTE, ThroughputLow),
			versus(svc, Throughput, parser.LTE, ThroughputHigh)),
		summary: fmt.Sprintf("prefix-cache hit ratio below %s× the same hour yesterday", share),
		title:   text("prefix-cache hit ratio %s, below %s× the same hour yesterday", valuePercent, share),
		description: text("Over the last hour the share of prompt tokens %s found in its prefix cache fell to %s, below %s× what it was at the same hour yesterday, while traffic held steady: the cache has gone cold and stayed cold, so prompts are computed in full and time to first token rises. Look for a restart loop, prefix caching switched off, or a router that lost its session affinity.",
			svc.Name, valuePercent, share),
	}, nil
}

func noHitRatio(runtime string) string {
	if p, _ := profile.Lookup(runtime); p.NoPrefixCache != "" {
		return p.NoPrefixCache
	}
	return fmt.Sprintf("runtime %s exports no prefix-cache hits or hit ratio", runtime)
}

// ColdCacheLines are what PrefixCacheColdStart compares, for a dashboard
// to draw: the hour's hit ratio as recorded, and the line it falls below
// when the cache goes cold, its share of the same hour yesterday.
func ColdCacheLines(svc model.Service) (ratio, coldBelow pql.Expr) {
	return recorded(svc, PrefixCacheHitRatio),
		pql.Mul(pql.Num(svc.Thresholds.PrefixCacheHitVsYesterday), recorded(svc, PrefixCacheHitRatio+dayAgo))
}
