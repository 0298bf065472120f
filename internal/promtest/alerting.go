package promtest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/promql"
)

// errDuplicateAlert has the text of rules.ErrDuplicateAlertLabelSet.
var errDuplicateAlert = errors.New("vector contains metrics with the same labelset after applying alert labels")

type alertState int

const (
	statePending alertState = iota
	stateFiring
)

func (s alertState) String() string {
	if s == stateFiring {
		return "firing"
	}
	return "pending"
}

// alert is one active instance of an alerting rule.
type alert struct {
	state           alertState
	labels          labels.Labels
	annotations     labels.Labels
	activeAt        time.Time
	keepFiringSince time.Time
}

// alertingRule mirrors rules.AlertingRule with its state restored (promtool
// calls SetRestored(true)), so ALERTS and ALERTS_FOR_STATE are written.
type alertingRule struct {
	name          string
	expr          string
	holdDuration  time.Duration
	keepFiringFor time.Duration
	labels        labels.Labels
	annotations   labels.Labels
	ac            alertContext
	active        map[uint64]*alert // keyed by the alert's label hash
}

func newAlertingRule(r rulefmt.Rule, expr string, lset labels.Labels, ac alertContext) *alertingRule {
	return &alertingRule{
		name:          r.Alert,
		expr:          expr,
		holdDuration:  time.Duration(r.For),
		keepFiringFor: time.Duration(r.KeepFiringFor),
		labels:        lset,
		annotations:   labels.FromMap(r.Annotations),
		ac:            ac,
		active:        map[uint64]*alert{},
	}
}

func (r *alertingRule) ruleName() string { return r.name }

func (r *alertingRule) eval(ctx context.Context, ts time.Time, queryOffset time.Duration, query queryFunc, limit int) (promql.Vector, error) {
	res, err := query(ctx, r.expr, ts.Add(-queryOffset))
	if err != nil {
		return nil, err
	}
	current, err := r.instances(ctx, ts, res, query)
	if err != nil {
		return nil, err
	}
	for h, a := range current {
		// A known alert keeps its state and activeAt; only annotations
		// (which may use $value) are refreshed.
		if old, ok := r.active[h]; ok {
			old.annotations = a.annotations
			continue
		}
		r.active[h] = a
	}
	vec := r.advance(ts, current, timestamp.FromTime(ts.Add(-queryOffset)))
	if n := len(vec) / 2; limit > 0 && n > limit {
		r.active = map[uint64]*alert{}
		return nil, fmt.Errorf("exceeded limit of %d with %d alerts", limit, n)
	}
	return vec, nil
}

// instances builds a pending alert for every sample of the query result,
// with labels and annotations expanded.
func (r *alertingRule) instances(ctx context.Context, ts time.Time, res promql.Vector, query queryFunc) (map[uint64]*alert, error) {
	current := make(map[uint64]*alert, len(res))
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, smpl := range res {
		expand := r.expander(ctx, ts, smpl, query)
		lb.Reset(smpl.Metric)
		lb.Del(labels.MetricName)
		r.labels.Range(func(l labels.Label) { lb.Set(l.Name, expand(l.Value)) })
		lb.Set(labels.AlertName, r.name)
		sb := labels.NewScratchBuilder(r.annotations.Len())
		r.annotations.Range(func(a labels.Label) { sb.Add(a.Name, expand(a.Value)) })

		lset := lb.Labels()
		h := lset.Hash()
		if _, ok := current[h]; ok {
			return nil, errDuplicateAlert
		}
		current[h] = &alert{state: statePending, labels: lset, annotations: sb.Labels(), activeAt: ts}
	}
	return current, nil
}

// advance moves every active alert through rules/alerting.go's state
// machine and returns its ALERTS and ALERTS_FOR_STATE samples at t.
// Prometheus keeps resolved alerts for 15 minutes to re-send them; nothing
// here can observe them, so they are dropped at once.
func (r *alertingRule) advance(ts time.Time, current map[uint64]*alert, t int64) promql.Vector {
	var vec promql.Vector
	for h, a := range r.active {
		if _, ok := current[h]; ok {
			a.keepFiringSince = time.Time{}
		} else if !r.keepsFiring(a, ts) {
			delete(r.active, h)
			continue
		}
		if a.state == statePending && ts.Sub(a.activeAt) >= r.holdDuration {
			a.state = stateFiring
		}
		vec = append(vec,
			r.seriesSample("ALERTS", a, true, t, 1),
			r.seriesSample("ALERTS_FOR_STATE", a, false, t, float64(a.activeAt.Unix())))
	}
	return vec
}

// keepsFiring reports whether a firing alert whose condition is gone stays
// firing because of keep_firing_for.
func (r *alertingRule) keepsFiring(a *alert, ts time.Time) bool {
	if a.state != stateFiring || r.keepFiringFor <= 0 {
		return false
	}
	if a.keepFiringSince.IsZero() {
		a.keepFiringSince = ts
	}
	return ts.Sub(a.keepFiringSince) < r.keepFiringFor
}

// seriesSample builds an ALERTS or ALERTS_FOR_STATE sample. Like Prometheus
// it starts from the unexpanded rule labels, so a label whose template
// expands to "" keeps its raw template value here.
func (r *alertingRule) seriesSample(metric string, a *alert, withState bool, t int64, v float64) promql.Sample {
	lb := labels.NewBuilder(r.labels)
	a.labels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
	lb.Set(labels.MetricName, metric)
	lb.Set(labels.AlertName, r.name)
	if withState {
		lb.Set("alertstate", a.state.String())
	}
	return promql.Sample{Metric: lb.Labels(), T: t, F: v}
}

// firing returns the firing alerts, the only ones promtool compares.
func (r *alertingRule) firing() labelsAndAnnotations {
	var out labelsAndAnnotations
	for _, a := range r.active {
		if a.state == stateFiring {
			out = append(out, labelAndAnnotation{Labels: a.labels, Annotations: a.annotations})
		}
	}
	return out
}
