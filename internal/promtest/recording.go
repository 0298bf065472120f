package promtest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
)

// errDuplicateRecording has the text of rules.ErrDuplicateRecordingLabelSet.
var errDuplicateRecording = errors.New("vector contains metrics with the same labelset after applying rule labels")

// recordingRule mirrors rules.RecordingRule.
type recordingRule struct {
	metric string
	expr   string
	labels labels.Labels
}

func (r *recordingRule) ruleName() string { return r.metric }

// eval renames the query result to the recorded metric and applies the
// rule labels; an empty label value removes the label, as in Prometheus.
func (r *recordingRule) eval(ctx context.Context, ts time.Time, queryOffset time.Duration, query queryFunc, limit int) (promql.Vector, error) {
	vec, err := query(ctx, r.expr, ts.Add(-queryOffset))
	if err != nil {
		return nil, err
	}
	lb := labels.NewBuilder(labels.EmptyLabels())
	for i := range vec {
		lb.Reset(vec[i].Metric)
		lb.Set(labels.MetricName, r.metric)
		r.labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		vec[i].Metric = lb.Labels()
	}
	if vec.ContainsSameLabelset() {
		return nil, errDuplicateRecording
	}
	if limit > 0 && len(vec) > limit {
		return nil, fmt.Errorf("exceeded limit of %d with %d series", limit, len(vec))
	}
	return vec, nil
}
