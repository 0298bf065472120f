package backtest_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

func load(t *testing.T, name string) model.Service {
	t.Helper()
	src := fmt.Sprintf(`package slo
services: %s: {runtime: "vllm", selector: {job: %q, namespace: "ml"}, slos: availability: objective: 99.5}
`, name, name)
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services[0]
}

// traffic writes a job's vLLM request counters every minute from start to
// end, at 1000 requests a minute with a tenth of a 99.5 % budget failing,
// and every request failing from outage for outageLen.
func traffic(b *strings.Builder, job string, start, end, outage time.Time, outageLen time.Duration) {
	ok, failed := 0.0, 0.0
	for ts := start; !ts.After(end); ts = ts.Add(time.Minute) {
		if !ts.Before(outage) && ts.Before(outage.Add(outageLen)) {
			failed += 1000
		} else {
			ok, failed = ok+999.5, failed+0.5
		}
		fmt.Fprintf(b, "http_requests_total{job=%q,namespace=\"ml\",status=\"2xx\"} %g %d\n", job, ok, ts.Unix())
	}
	ok, failed = 0, 0
	for ts := start; !ts.After(end); ts = ts.Add(time.Minute) {
		if !ts.Before(outage) && ts.Before(outage.Add(outageLen)) {
			failed += 1000
		} else {
			failed += 0.5
		}
		fmt.Fprintf(b, "http_requests_total{job=%q,namespace=\"ml\",status=\"5xx\"} %g %d\n", job, failed, ts.Unix())
	}
}

// A real Prometheus 2.42 holds a day with a 40-minute outage, and a calm
// week. The backtest pages for the outage when the generated tests say it
// must, and reports nothing for the calm week.
func TestBacktestOfRealHistory(t *testing.T) {
	promtool := testenv.Tool(t, "promtool")
	dir := t.TempDir()
	end := time.Now().UTC().Truncate(time.Hour).Add(-time.Hour)
	outage := end.Add(-12 * time.Hour)
	var om strings.Builder
	traffic(&om, "incident", end.Add(-24*time.Hour-backtest.Warmup-time.Hour), end, outage, 40*time.Minute)
	traffic(&om, "calm", end.Add(-7*24*time.Hour-backtest.Warmup-time.Hour), end, time.Time{}, 0)
	om.WriteString("# EOF\n")
	history := filepath.Join(dir, "history.om")
	if err := os.WriteFile(history, []byte(om.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", history, filepath.Join(dir, "data")).CombinedOutput(); err != nil {
		t.Fatalf("backfill: %v\n%s", err, out)
	}
	prom := testenv.StartPrometheus(t, dir, "global: {scrape_interval: 1m}\n")
	client, err := api.NewClient(api.Config{Address: prom.URL})
	if err != nil {
		t.Fatal(err)
	}
	q := v1.NewAPI(client)

	svc := load(t, "incident")
	r := backtestOf(t, q, svc, end.Add(-24*time.Hour), end)
	early, late := rules.FirstPage(svc, svc.SLOs[0])
	var pages []backtest.Span
	for _, s := range r.Spans {
		if s.Labels.Get("tier") == "page" {
			pages = append(pages, s)
		}
		if a := s.Alert(); a == "SLOMetricsAbsent" || a == "SLOTrafficDrop" {
			t.Errorf("a full outage raised %s", a)
		}
	}
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1: %+v", len(pages), r.Spans)
	}
	if at := pages[0].FiringAt.Sub(outage).Minutes(); at < math.Floor(early) || at > math.Ceil(late) {
		t.Errorf("the page fired %.0f minutes into the outage, the generated tests say %.1f to %.1f", at, early, late)
	}
	plot := filepath.Join(dir, "incident.svg")
	if p := os.Getenv("SLOGEN_PLOT"); p != "" {
		plot = p // keep the picture for review
	}
	var svg strings.Builder
	if err := backtest.Plot(&svg, svc, svc.SLOs[0], r); err != nil || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("plot: %v", err)
	}
	if err := os.WriteFile(plot, []byte(svg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var table strings.Builder
	if err := backtest.WriteTable(&table, svc, r); err != nil {
		t.Fatal(err)
	}
	t.Logf("backtest of the day:\n%s", table.String())
	if used := r.BudgetUsed["availability"]; math.Abs(used-(40+0.05*1440/60)/(0.005*30*1440)) > 0.01 {
		t.Errorf("budget used %.3f, want what 40 minutes down costs of a 30d budget at 99.5%%", used)
	}

	calm := load(t, "calm")
	if r := backtestOf(t, q, calm, end.Add(-7*24*time.Hour), end); len(r.Spans) != 0 {
		t.Errorf("a calm week raised %d alerts: %+v", len(r.Spans), r.Spans)
	}
}

func backtestOf(t *testing.T, q backtest.Querier, svc model.Service, from, to time.Time) backtest.Result {
	t.Helper()
	ctx := context.Background()
	sels := backtest.Selectors(backtest.Groups(svc, false))
	inputs, err := backtest.Fetch(ctx, q, sels, from.Add(-backtest.Warmup), to, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no series for %s", svc.Name)
	}
	r, err := backtest.Run(ctx, svc, inputs, from, to, backtest.Config{Every: time.Minute, Points: 500})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
