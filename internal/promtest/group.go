package promtest

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/promql"
)

// rule is a recording or alerting rule. eval returns the samples to store.
type rule interface {
	ruleName() string
	eval(ctx context.Context, ts time.Time, queryOffset time.Duration, query queryFunc, limit int) (promql.Vector, error)
}

// group mirrors rules.Group's evaluation: rules run in order, each sees
// what the ones before it stored at the same timestamp.
type group struct {
	name        string
	file        string
	limit       int
	queryOffset time.Duration
	rules       []rule
	// prevSeries holds, per rule, the series it stored at its last
	// successful evaluation, so that series which vanish from its output
	// get a stale marker, as rules/group.go does. Without it absent() on a
	// recorded series would lag by the lookback delta.
	prevSeries []map[string]labels.Labels
}

// eval evaluates every rule at ts and returns one error per failing rule,
// worded as promtool reports them.
func (g *group) eval(ctx context.Context, ts time.Time, query queryFunc, st *memStorage) []error {
	var errs []error
	for i, r := range g.rules {
		if err := g.evalRule(ctx, i, ts, query, st); err != nil {
			errs = append(errs, fmt.Errorf("    rule: %s, time: %s, err: %w",
				r.ruleName(), ts.Sub(time.Unix(0, 0).UTC()), err))
		}
	}
	return errs
}

// evalRule stores one rule's output. As in Prometheus, a failed query
// leaves earlier output alone (no stale markers), while a rejected append
// fails the rule but the other samples are still stored.
func (g *group) evalRule(ctx context.Context, i int, ts time.Time, query queryFunc, st *memStorage) error {
	vec, err := g.rules[i].eval(ctx, ts, g.queryOffset, query, g.limit)
	if err != nil {
		return err
	}
	var appendErr error
	stored := make(map[string]labels.Labels, len(vec))
	for _, s := range vec {
		if err := st.append(s.Metric, s.T, s.F); err != nil {
			appendErr = err
			continue
		}
		stored[string(s.Metric.Bytes(nil))] = s.Metric
	}
	staleT := timestamp.FromTime(ts.Add(-g.queryOffset))
	for key, lset := range g.prevSeries[i] {
		if _, ok := stored[key]; !ok {
			// Prometheus ignores these errors too: another rule may
			// have written the series at this timestamp.
			_ = st.append(lset, staleT, math.Float64frombits(value.StaleNaN))
		}
	}
	g.prevSeries[i] = stored
	return appendErr
}
