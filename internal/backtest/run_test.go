package backtest_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// counters are a vLLM service's request counters every minute from start
// to end, 1000 requests a minute, failing at ratio(t).
func counters(start, end time.Time, ratio func(time.Time) float64) []promtest.Input {
	ok := promtest.Input{Labels: labels.FromStrings("__name__", "http_requests_total", "job", "slow", "namespace", "ml", "status", "2xx")}
	bad := promtest.Input{Labels: labels.FromStrings("__name__", "http_requests_total", "job", "slow", "namespace", "ml", "status", "5xx")}
	var o, b float64
	for ts := start; !ts.After(end); ts = ts.Add(time.Minute) {
		r := ratio(ts)
		o, b = o+1000*(1-r), b+1000*r
		ok.Samples = append(ok.Samples, promql.FPoint{T: ts.UnixMilli(), F: o})
		bad.Samples = append(bad.Samples, promql.FPoint{T: ts.UnixMilli(), F: b})
	}
	return []promtest.Input{ok, bad}
}

// Two days of a slow burn, between the ticket and the page thresholds,
// open both tickets and page no one: the ticket tiers read the period
// group's long windows, which the replay records before any alert runs.
func TestSlowBurnOpensTickets(t *testing.T) {
	svc := load(t, "slow")
	from := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	to := from.Add(48 * time.Hour)
	inputs := counters(from.Add(-backtest.Warmup), to, func(ts time.Time) float64 {
		if ts.Before(from) {
			return 0.0005
		}
		return 0.02 // 4× the 0.5 % budget: above both ticket tiers, below both pages
	})
	r, err := backtest.Run(context.Background(), svc, inputs, from, to, backtest.Config{Every: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	tiers := map[string]int{}
	for _, s := range r.Spans {
		tiers[s.Labels.Get("tier")]++
	}
	if tiers["ticket_fast"] == 0 || tiers["ticket_slow"] == 0 || tiers["page"] > 0 {
		t.Errorf("tiers fired %v, want both tickets and no page: %+v", tiers, r.Spans)
	}
	// Two days at 2 % errors spend 2 × 0.02 / (0.005 × 30) of the budget.
	if used, want := r.BudgetUsed["availability"], 2*0.02/(0.005*30); used < want*0.95 || used > want*1.05 {
		t.Errorf("budget used %.3f, want %.3f", used, want)
	}
}
