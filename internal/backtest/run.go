package backtest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// Warmup is the history evaluated before the backtest's window, so that
// the longest alert window (the slow ticket's 3d) is full when it starts;
// it covers the diagnosis alerts' day-earlier comparisons too.
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
	// Ratios are, per SLO, its recorded error ratios over the window, for
	// plots; only when asked for.
	Ratios map[string]Ratios
}

// Ratios are an SLO's error ratio over the base window and over 1h, at
// Times; NaN where there was no request.
type Ratios struct {
	Times       []time.Time
	Short, Long []float64
}

// Config says how to run a backtest.
type Config struct {
	// Every is the global evaluation interval.
	Every time.Duration
	// Progress, when set, is told the share of the rules evaluated.
	Progress func(share float64)
	// Points, when above zero, is how many points of each SLO's error
	// ratios to keep for plots.
	Points int
	// Groups are the rule groups to evaluate, those Selectors fetched for;
	// nil for the SLO rules alone.
	Groups []rules.Group
}

// Run evaluates the service's rule groups (Groups) over the inputs from
// from−Warmup to to, every cfg.Every or at a group's own interval, and
// returns the alerts that fired in [from, to].
func Run(ctx context.Context, svc slomodel.Service, inputs []promtest.Input, from, to time.Time, cfg Config) (Result, error) {
	groups := cfg.Groups
	if groups == nil {
		groups = Groups(svc, false)
	}
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		return Result{}, err
	}
	start := from.Add(-Warmup)
	to = from.Add(to.Sub(from).Truncate(cfg.Every))
	replayed, err := promtest.Replay{Every: cfg.Every, Progress: cfg.Progress}.Run(ctx, rf, inputs, start, to)
	if ctx.Err() != nil {
		return Result{}, ctx.Err() // the engine reports its own timeout error
	}
	if err != nil {
		return Result{}, fmt.Errorf("evaluating %s's rules: %w", svc.Name, err)
	}
	defer replayed.Close()
	res := Result{Service: svc.Name, From: from, To: to, Spans: overlapping(replayed.Spans, from, to)}
	if res.BudgetUsed, err = budgetUsed(ctx, replayed, svc, from, to); err != nil {
		return Result{}, err
	}
	if cfg.Points > 0 {
		if res.Ratios, err = ratios(ctx, replayed, svc, from, to, cfg.Points); err != nil {
			return Result{}, err
		}
	}
	return res, nil
}

// ratios samples every SLO's recorded error ratios at points times: of
// all its requests, where group_by splits it (its alerts' spans name the
// value that burnt).
func ratios(ctx context.Context, r *promtest.Replayed, svc slomodel.Service, from, to time.Time, points int) (map[string]Ratios, error) {
	out := map[string]Ratios{}
	step := max(to.Sub(from)/time.Duration(points), time.Minute)
	query := func(w time.Duration) string {
		summed := func(metric string) pql.Expr { return pql.Sum(rules.ServiceSeries(metric, svc), pql.By("slo")) }
		return pql.Print(pql.Div(summed(rules.Errors(w)), summed(rules.Requests(w))))
	}
	queries := map[time.Duration]string{slomodel.BaseWindow: query(slomodel.BaseWindow), time.Hour: query(time.Hour)}
	for ts := from; !ts.After(to); ts = ts.Add(step) {
		var short, long map[string]float64
		for w, into := range map[time.Duration]*map[string]float64{slomodel.BaseWindow: &short, time.Hour: &long} {
			v, err := r.Query(ctx, queries[w], ts)
			if err != nil {
				return nil, err
			}
			*into = map[string]float64{}
			for _, s := range v {
				(*into)[s.Metric.Get("slo")] = s.F
			}
		}
		for _, slo := range svc.SLOs {
			rs := out[slo.Name]
			rs.Times = append(rs.Times, ts)
			rs.Short = append(rs.Short, valueOr(short, slo.Name))
			rs.Long = append(rs.Long, valueOr(long, slo.Name))
			out[slo.Name] = rs
		}
	}
	return out, nil
}

func valueOr(m map[string]float64, k string) float64 {
	if v, ok := m[k]; ok {
		return v
	}
	return math.NaN()
}

// budgetUsed is, per SLO (all its values together, where it is split),
// the errors of the window against the budget of the whole period: errors in [from, to] over (budget × the period's
// requests at the traffic the period's recordings hold by `to`), read
// from the period group's samples, as the budget left is.
func budgetUsed(ctx context.Context, r *promtest.Replayed, svc slomodel.Service, from, to time.Time) (map[string]float64, error) {
	window := to.Sub(from)
	averaged := pql.Call("avg_over_time", pql.Range(rules.ServiceSeries(rules.DownsampledErrorsMetric, svc), window.Truncate(time.Second)))
	errs, err := r.Query(ctx, pql.Print(pql.Sum(averaged, pql.By("slo"))), to)
	if err != nil {
		return nil, err
	}
	failed := bySLO(errs)
	out := map[string]float64{}
	for _, slo := range svc.SLOs {
		p := slo.Period.Duration
		reqs, err := r.Query(ctx, pql.Print(pql.Sum(rules.SLOSeries(rules.Requests(p), svc, slo), pql.By("slo"))), to)
		if err != nil {
			return nil, err
		}
		rate, ok := bySLO(reqs)[slo.Name]
		if f, seen := failed[slo.Name]; ok && seen && rate > 0 {
			budget, _ := slo.ErrorBudget().Float64()
			out[slo.Name] = f * window.Seconds() / (rate * p.Seconds() * budget)
		}
	}
	return out, nil
}

func bySLO(v promql.Vector) map[string]float64 {
	out := map[string]float64{}
	for _, s := range v {
		if !math.IsNaN(s.F) { // NaN: no request in the period yet
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
