package promtest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/promql"
)

// Input is one series of recorded history: its labels and its samples in
// time order.
type Input struct {
	Labels  labels.Labels
	Samples []promql.FPoint
}

// Replay evaluates a rule file over recorded history, as a Prometheus
// server running it would have: every group at its own interval from the
// start (Every for groups that set none), rules in file order.
//
// It runs each rule as one range query over the whole history rather than
// one instant query per evaluation: the engine then reads each sample of a
// window once, not once per evaluation it falls in, which is what makes a
// week of history take seconds. Every recording rule runs before every
// alerting rule, each recording rule after those before it in the file,
// so a rule reads what the others recorded at the same timestamps. A
// server runs its groups apart, so a rule there can read another group's
// recordings of the evaluation before: a replayed alert that reads them
// can fire an evaluation sooner.
type Replay struct {
	Every time.Duration
	// Progress, when set, is told the share of the rules evaluated.
	Progress func(share float64)
}

// Span is an alert firing from FiringAt until ResolvedAt (zero while it
// still fires at the end). Labels include alertname.
type Span struct {
	Labels     labels.Labels
	FiringAt   time.Time
	ResolvedAt time.Time
}

// Replayed is a finished replay: the alerts that fired, and the series,
// recorded ones included, to query.
type Replayed struct {
	Spans  []Span
	st     *memStorage
	engine *promql.Engine
}

// replayMaxSamples is Prometheus's default --query.max-samples.
const replayMaxSamples = 50_000_000

// Run replays the rule file over the inputs from start to end.
func (r Replay) Run(ctx context.Context, ruleFile []byte, inputs []Input, start, end time.Time) (*Replayed, error) {
	rgs, errs := rulefmt.Parse(ruleFile, false, model.LegacyValidation, ruleParser, promslog.NewNopLogger())
	if len(errs) > 0 {
		return nil, fmt.Errorf("rule file: %w", errs[0])
	}
	st := newMemStorage()
	for _, in := range inputs {
		for _, p := range in.Samples {
			if err := st.append(in.Labels, p.T, p.F); err != nil {
				return nil, fmt.Errorf("series %s at %s: %w", in.Labels, timestamp.Time(p.T).UTC().Format(time.RFC3339), err)
			}
		}
	}
	// One query covers the whole history: the caller's context bounds it.
	out := &Replayed{st: st, engine: newEngine(r.Every, replayMaxSamples, 24*time.Hour)}
	rules := inOrder(rgs.Groups)
	for i, rule := range rules {
		every := r.Every
		if rule.group.Interval != 0 {
			every = time.Duration(rule.group.Interval)
		}
		steps := stepsOf(start, end, every)
		m, err := out.rangeQuery(ctx, rule.Expr, start, timestamp.Time(steps[len(steps)-1]), every)
		if err != nil {
			return nil, fmt.Errorf("group %s, rule %s%s: %w", rule.group.Name, rule.Record, rule.Alert, err)
		}
		lset := labels.FromMap(mergeMaps(rule.group.Labels, rule.Labels))
		if rule.Record != "" {
			if err := record(st, rule.Record, lset, m, steps); err != nil {
				return nil, fmt.Errorf("group %s, rule %s: %w", rule.group.Name, rule.Record, err)
			}
		} else {
			out.Spans = append(out.Spans, alertSpans(rule.Rule, lset, m, steps)...)
		}
		if r.Progress != nil {
			r.Progress(float64(i+1) / float64(len(rules)))
		}
	}
	return out, nil
}

// groupRule is a rule and the group it is in.
type groupRule struct {
	rulefmt.Rule
	group *rulefmt.RuleGroup
}

// inOrder lists the recording rules of every group in file order, then
// the alerting rules: an alert may read any group's recordings (the SLO
// group's ticket tiers read the period group's long windows), and run
// over the whole history at once, it must come after all of them.
func inOrder(groups []rulefmt.RuleGroup) []groupRule {
	var records, alerts []groupRule
	for i := range groups {
		for _, r := range groups[i].Rules {
			if r.Record != "" {
				records = append(records, groupRule{r, &groups[i]})
			} else {
				alerts = append(alerts, groupRule{r, &groups[i]})
			}
		}
	}
	return append(records, alerts...)
}

// Query runs an instant query over everything replayed.
func (r *Replayed) Query(ctx context.Context, expr string, ts time.Time) (promql.Vector, error) {
	return engineQuery(r.engine, r.st)(ctx, expr, ts)
}

// Close releases the engine.
func (r *Replayed) Close() { r.engine.Close() }

func (r *Replayed) rangeQuery(ctx context.Context, expr string, start, end time.Time, every time.Duration) (promql.Matrix, error) {
	q, err := r.engine.NewRangeQuery(ctx, r.st, nil, expr, start, end, every)
	if err != nil {
		return nil, err
	}
	defer q.Close()
	res := q.Exec(ctx)
	if res.Err != nil {
		return nil, res.Err
	}
	switch v := res.Value.(type) {
	case promql.Matrix:
		return v, nil
	default:
		return nil, fmt.Errorf("a rule gave a %s", v.Type())
	}
}

func stepsOf(start, end time.Time, every time.Duration) []int64 {
	var out []int64
	for ts := start; !ts.After(end); ts = ts.Add(every) {
		out = append(out, timestamp.FromTime(ts))
	}
	return out
}

// record stores a recording rule's output under its name and labels, and
// a stale marker at the first evaluation a series is missing from, as a
// server's rule group does.
func record(st *memStorage, name string, ruleLabels labels.Labels, m promql.Matrix, steps []int64) error {
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, s := range m {
		lb.Reset(s.Metric)
		lb.Set(labels.MetricName, name)
		ruleLabels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		lset := lb.Labels()
		next := 0 // index in steps of the evaluation after the last point
		for _, p := range s.Floats {
			i, _ := slices.BinarySearch(steps, p.T)
			if i > next && next > 0 {
				if err := st.append(lset, steps[next], math.Float64frombits(value.StaleNaN)); err != nil {
					return err
				}
			}
			if err := st.append(lset, p.T, p.F); err != nil {
				return err
			}
			next = i + 1
		}
		if next > 0 && next < len(steps) {
			if err := st.append(lset, steps[next], math.Float64frombits(value.StaleNaN)); err != nil {
				return err
			}
		}
	}
	return nil
}

// alertSpans runs an alerting rule's state machine over its expression's
// results: an alert is pending from the first evaluation its series is
// there, fires once that has lasted `for`, and resolves at the first
// evaluation it is gone.
func alertSpans(rule rulefmt.Rule, ruleLabels labels.Labels, m promql.Matrix, steps []int64) []Span {
	hold := time.Duration(rule.For).Milliseconds()
	var out []Span
	lb := labels.NewBuilder(labels.EmptyLabels())
	for _, s := range m {
		lb.Reset(s.Metric)
		lb.Del(labels.MetricName)
		ruleLabels.Range(func(l labels.Label) { lb.Set(l.Name, l.Value) })
		lb.Set(labels.AlertName, rule.Alert)
		lset := lb.Labels()
		var activeAt, prev int64 = -1, -1
		var open *Span
		closeAt := func(t int64) {
			if open != nil {
				open.ResolvedAt = timestamp.Time(t).UTC()
				out = append(out, *open)
				open = nil
			}
			activeAt = -1
		}
		for _, p := range s.Floats {
			i, _ := slices.BinarySearch(steps, p.T)
			if prev >= 0 && i > 0 && steps[i-1] != prev { // a gap: resolved at the step after prev
				j, _ := slices.BinarySearch(steps, prev)
				closeAt(steps[j+1])
			}
			if activeAt < 0 {
				activeAt = p.T
			}
			if open == nil && p.T-activeAt >= hold {
				open = &Span{Labels: lset, FiringAt: timestamp.Time(p.T).UTC()}
			}
			prev = p.T
		}
		if prev >= 0 {
			if j, _ := slices.BinarySearch(steps, prev); j+1 < len(steps) {
				closeAt(steps[j+1])
			}
		}
		if open != nil {
			out = append(out, *open)
		}
	}
	return out
}
