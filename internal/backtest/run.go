package backtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/generate/rules"
	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// Warmup is the history evaluated before the backtest's window, so that
// the longest alert window (the slow ticket's 3d) is full when it starts.
// It is a whole number of the period group's evaluations.
var Warmup = 72*time.Hour + 2*rules.PeriodInterval

// Span is one alert firing: from FiringAt until ResolvedAt, zero while it
// still fires at the end.
type Span struct{ promtest.Span }

// Alert is the span's alert name.
func (s Span) Alert() string { return s.Labels.Get(labels.AlertName) }

// Result is what the rules would have done over a window.
type Result struct {
	Service  string
	From, To time.Time
	// Spans are the alerts firing at any time in the window, by start.
	Spans []Span
	// BudgetUsed is, per SLO, the share of its period's error budget that
	// the window's failures spent; an SLO without data has none.
	BudgetUsed map[string]float64
}

// Run evaluates the service's SLO rule groups over the inputs from
// from−Warmup to to, every `every` (the global evaluation interval) and
// the period group at its own, and returns the alerts that fired in
// [from, to].
func Run(ctx context.Context, svc slomodel.Service, inputs []promtest.Input, from, to time.Time, every time.Duration, progress func(share float64)) (Result, error) {
	rf, err := rules.Marshal(rules.File{Groups: rules.Build(svc)})
	if err != nil {
		return Result{}, err
	}
	start := from.Add(-Warmup)
	to = from.Add(to.Sub(from).Truncate(every))
	replayed, err := promtest.Replay{Every: every, Progress: progress}.Run(ctx, rf, inputs, start, to)
	if err != nil {
		return Result{}, fmt.Errorf("evaluating %s's rules: %w", svc.Name, err)
	}
	defer replayed.Close()
	res := Result{Service: svc.Name, From: from, To: to, BudgetUsed: map[string]float64{}, Spans: overlapping(replayed.Spans, from, to)}
	left := func(ts time.Time) (map[string]float64, error) {
		v, err := replayed.Query(ctx, fmt.Sprintf("%s{service=%q}", rules.BudgetRemainingMetric, svc.Name), ts)
		return bySLO(v), err
	}
	begin, err := left(from)
	if err != nil {
		return Result{}, err
	}
	end, err := left(to)
	if err != nil {
		return Result{}, err
	}
	for slo, e := range end {
		b, ok := begin[slo]
		if !ok {
			b = 1
		}
		res.BudgetUsed[slo] = b - e
	}
	return res, nil
}

func bySLO(v promql.Vector) map[string]float64 {
	out := map[string]float64{}
	for _, s := range v {
		if s.F == s.F { // NaN: no request in the period yet
			out[s.Metric.Get("slo")] = s.F
		}
	}
	return out
}

// overlapping are the spans that fired at some time in [from, to], by
// start, then by labels.
func overlapping(spans []promtest.Span, from, to time.Time) []Span {
	var out []Span
	for _, s := range spans {
		if s.FiringAt.After(to) || (!s.ResolvedAt.IsZero() && !s.ResolvedAt.After(from)) {
			continue
		}
		out = append(out, Span{s})
	}
	slices.SortFunc(out, func(a, b Span) int {
		if c := a.FiringAt.Compare(b.FiringAt); c != 0 {
			return c
		}
		return strings.Compare(a.Labels.String(), b.Labels.String())
	})
	return out
}
