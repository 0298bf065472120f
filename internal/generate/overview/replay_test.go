package overview

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// TestTableReadsWhatTheRulesRecord replays two services' own rule files
// over their raw counters, each failing a share of its requests, and
// reads the table from what the rules recorded: a row per SLO with every
// column, the SLI what the service failed, the objective the spec's, the
// burn rate that share over the budget.
func TestTableReadsWhatTheRulesRecord(t *testing.T) {
	svcs := load(t, "two.cue", `package slo
services: chat: {
	team: "chat", runtime: "vllm"
	selector: {namespace: "chat", job: "chat"}
	slos: {
		availability: {objective: 99.9}
		ttft: {objective: 99, threshold: "1s"}
	}
}
services: search: {
	team: "search", runtime: "sglang"
	selector: {namespace: "search", job: "search"}
	slos: availability: {objective: 99.5, window: "7d"}
}
`)
	failing := map[string]float64{"chat": 0.004, "search": 0.001} // share of requests failed
	var groups []rules.Group
	var in []promtest.Input
	for _, svc := range svcs {
		local, _ := rules.Split(svc)
		groups = append(append(groups, local...), gpualerts.Build(gpualerts.NewPlan(svc))...)
		in = append(in, counters(svc, 10, failing[svc.Name])...)
		info := labels.FromStrings(labels.MetricName, ServiceInfo, "service", svc.Name, "team", svc.Team, "runtime", svc.Runtime,
			infoDashboard, "slogen-"+svc.Runtime)
		in = append(in, constant(info, 1))
	}
	for i := range groups {
		groups[i].Interval = "" // every group every step, so that 70 minutes cover the period
	}
	ruleFile, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	// The rules start a minute after the counters, so that every rate has
	// two samples from their first evaluation on.
	r, err := promtest.Replay{Every: 30 * time.Second}.Run(context.Background(), ruleFile, in, time.Unix(60, 0).UTC(), at)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)

	rows := tableRowsOf(t, svcs, r, grafanatest.AllPicked(build(t, svcs)))
	if len(rows) != 3 {
		t.Fatalf("rows %v, want one per SLO", names(rows))
	}
	for _, row := range rows {
		svc, slo := sloOf(t, svcs, row)
		failed := failing[svc.Name]
		allowed, _ := slo.ErrorBudget().Float64()
		objective, _ := slo.Objective.Float64()
		want := map[string]float64{
			SLIColumn:        1 - failed,
			ObjectiveColumn:  objective,
			BurnColumn("1h"): failed / allowed,
			BurnColumn("6h"): failed / allowed,
			SLOAlertsColumn:  0,
		}
		for col, v := range want {
			if got := row.values[col]; math.Abs(got-v) > 1e-6*math.Max(1, v) {
				t.Errorf("%s: %s %v, want %v", row.name(), col, got, v)
			}
		}
		for _, col := range []string{BudgetColumn, CoverageColumn, ServiceAlertsColumn} {
			if v, ok := row.values[col]; !ok || math.IsNaN(v) {
				t.Errorf("%s: no %s", row.name(), col)
			}
		}
	}
}

func sloOf(t *testing.T, svcs []model.Service, r row) (model.Service, model.SLO) {
	t.Helper()
	for _, svc := range svcs {
		for _, slo := range svc.SLOs {
			if svc.Name == r.labels["service"] && slo.Name == r.labels["slo"] {
				return svc, slo
			}
		}
	}
	t.Fatalf("no SLO %s", r.name())
	return model.Service{}, model.SLO{}
}

// counters are the raw counters behind a service's SLIs at perSecond
// requests a second, a share failed of them, sampled every 15 seconds
// until the tests' instant.
func counters(svc model.Service, perSecond, failed float64) []promtest.Input {
	seen := map[string]bool{}
	var out []promtest.Input
	for _, slo := range svc.SLOs {
		for _, s := range slo.SLI.Inputs {
			if seen[s.Series.String()] {
				continue
			}
			seen[s.Series.String()] = true
			perStep := perSecond * ((1-failed)*s.Good + failed*s.Bad)
			series := promtest.Input{Labels: s.Series}
			for ts := int64(0); ts <= at.UnixMilli(); ts += 15_000 {
				series.Samples = append(series.Samples, promql.FPoint{T: ts, F: perStep * float64(ts) / 1000})
			}
			out = append(out, series)
		}
	}
	return out
}

func constant(ls labels.Labels, v float64) promtest.Input {
	in := promtest.Input{Labels: ls}
	for ts := int64(0); ts <= at.UnixMilli(); ts += 15_000 {
		in.Samples = append(in.Samples, promql.FPoint{T: ts, F: v})
	}
	return in
}
