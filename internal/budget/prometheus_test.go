package budget_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"

	"github.com/slogen-dev/slogen/internal/budget"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

func load(t *testing.T, src string) model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte("package slo\n" + src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services[0]
}

// history writes two days of the period group's samples (every 4m) and
// the last hour of the raw request counters (every 15s), at 10 requests a
// second of which 0.1 % fail, ending just before now.
func history(svc model.Service, now time.Time) string {
	var b strings.Builder
	end := now.Add(-30 * time.Second)
	sample := func(series string, from time.Time, every time.Duration, value func(t time.Time) float64) {
		for ts := from; !ts.After(end); ts = ts.Add(every) {
			fmt.Fprintf(&b, "%s %g %d\n", series, value(ts), ts.Unix())
		}
	}
	for _, slo := range svc.SLOs {
		ls := fmt.Sprintf(`{service="%s",slo="%s"}`, svc.Name, slo.Name)
		sample(rules.DownsampledRequestsMetric+ls, end.Add(-48*time.Hour), rules.PeriodInterval, func(time.Time) float64 { return 10 })
		sample(rules.DownsampledErrorsMetric+ls, end.Add(-48*time.Hour), rules.PeriodInterval, func(time.Time) float64 { return 0.01 })
	}
	start := end.Add(-time.Hour)
	counter := func(status string, perSecond float64) {
		sample(fmt.Sprintf(`http_requests_total{job="chat",namespace="ml",status="%s"}`, status), start, 15*time.Second,
			func(ts time.Time) float64 { return perSecond * ts.Sub(start).Seconds() })
	}
	counter("2xx", 9.99)
	counter("5xx", 0.01)
	b.WriteString("# EOF\n")
	return b.String()
}

// Budget reads what a real Prometheus 2.42 computes from slogen's rules
// over backfilled history: two days of a 30d period, at 0.1 % errors
// against a 0.5 % budget.
func TestReadsWhatPrometheusRecorded(t *testing.T) {
	promtool := testenv.Tool(t, "promtool")
	svc := load(t, `services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: availability: objective: 99.5}`)
	dir := t.TempDir()
	now := time.Now()
	om := filepath.Join(dir, "history.om")
	if err := os.WriteFile(om, []byte(history(svc, now)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", om, filepath.Join(dir, "data")).CombinedOutput(); err != nil {
		t.Fatalf("backfill: %v\n%s", err, out)
	}
	groups := rules.Build(svc)
	for i := range groups {
		groups[i].Interval = "" // every 5s, not the period group's 4m, so the test need not wait for it
	}
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), rf, 0o644); err != nil {
		t.Fatal(err)
	}
	prom := testenv.StartPrometheus(t, dir, "global: {evaluation_interval: 5s}\nrule_files: [rules.yaml]\n")
	client, err := api.NewClient(api.Config{Address: prom.URL})
	if err != nil {
		t.Fatal(err)
	}
	var slos []budget.SLO
	deadline := time.Now().Add(30 * time.Second)
	for {
		// Both groups have run once when every figure is there.
		slos, err = budget.Read(context.Background(), v1.NewAPI(client), []model.Service{svc}, time.Now(), nil)
		if err == nil && !slices.Contains(slos[0].Burn, nil) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no complete budget after 30s (%v): %+v\n%s", err, slos, prom.Log())
		}
		time.Sleep(time.Second)
	}
	s := slos[0]
	// Two days of 30, each extra 5s evaluation adding 4m of coverage.
	coverage := 2.0 / 30
	for name, c := range map[string]struct {
		got       *float64
		want, tol float64
	}{
		"SLI":            {s.SLI, 0.999, 1e-6},
		"coverage":       {s.Coverage, coverage, 0.005},
		"budget left":    {s.Remaining, 1 - 0.001*coverage/0.005, 0.002},
		"burn rate (1h)": {s.Burn[0], 0.2, 0.01},
		"burn rate (1d)": {s.Burn[2], 0.2, 0.01},
	} {
		if c.got == nil || math.Abs(*c.got-c.want) > c.tol {
			t.Errorf("%s = %v, want %v ± %v", name, deref(c.got), c.want, c.tol)
		}
	}

	// A spec that does not match what is deployed has no data.
	other := load(t, `services: search: {runtime: "vllm", selector: {job: "search", namespace: "ml"}, slos: availability: objective: 99.9}`)
	if _, err := budget.Read(context.Background(), v1.NewAPI(client), []model.Service{other}, time.Now(), nil); err == nil || !strings.Contains(err.Error(), "no data for [search/availability]") {
		t.Errorf("a service Prometheus never saw: %v", err)
	}
}

func deref(f *float64) any {
	if f == nil {
		return "no data"
	}
	return *f
}
