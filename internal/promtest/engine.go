package promtest

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/storage"
)

// queryFunc runs an instant query; it has the shape of rules.QueryFunc and
// template.QueryFunc.
type queryFunc func(ctx context.Context, qs string, t time.Time) (promql.Vector, error)

// promtoolMaxSamples and promtoolTimeout are the limits of promtool's test
// engine on one query.
const (
	promtoolMaxSamples = 10000
	promtoolTimeout    = 100 * time.Second
)

// newEngine configures the engine as promtool's lazy loader does, so that
// verdicts match: @ and negative offsets enabled,
// and step-less subqueries run at the evaluation interval. Tests cap a
// query at promtool's 10000 samples; a replay of real history at what
// Prometheus allows by default.
func newEngine(subqueryStep time.Duration, maxSamples int, timeout time.Duration) *promql.Engine {
	return promql.NewEngine(promql.EngineOpts{
		MaxSamples:               maxSamples,
		Timeout:                  timeout,
		LookbackDelta:            5 * time.Minute,
		NoStepSubqueryIntervalFn: func(int64) int64 { return subqueryStep.Milliseconds() },
		EnableAtModifier:         true,
		EnableNegativeOffset:     true,
		Parser:                   ruleParser,
	})
}

// engineQuery returns a queryFunc over q that, like rules.EngineQueryFunc,
// turns a scalar result into a one-sample vector and rejects other types.
func engineQuery(ng *promql.Engine, q storage.Queryable) queryFunc {
	return func(ctx context.Context, qs string, t time.Time) (promql.Vector, error) {
		qry, err := ng.NewInstantQuery(ctx, q, nil, qs, t)
		if err != nil {
			return nil, err
		}
		defer qry.Close()
		res := qry.Exec(ctx)
		if res.Err != nil {
			return nil, res.Err
		}
		switch v := res.Value.(type) {
		case promql.Vector:
			return v, nil
		case promql.Scalar:
			return promql.Vector{{T: v.T, F: v.V, Metric: labels.EmptyLabels()}}, nil
		default:
			return nil, errors.New("rule result is not a vector or scalar")
		}
	}
}
