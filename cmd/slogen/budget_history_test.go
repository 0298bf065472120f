package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// historySpec is two services with a 7d period, to keep the history
// short: outage had its rules deployed just now, steady a week ago.
const historySpec = `package slo
services: outage: {runtime: "vllm", selector: {job: "outage", namespace: "ml"}, slos: availability: {objective: 99.5, window: "7d"}}
services: steady: {runtime: "vllm", selector: {job: "steady", namespace: "ml"}, slos: availability: {objective: 99.5, window: "7d"}}
`

// rawCounters writes a job's vLLM request counters every minute from
// start to end at 10 requests a second: failing a share of them, and all
// of them for outageLen from outage.
func rawCounters(b *strings.Builder, job string, start, end time.Time, failing float64, outage time.Time, outageLen time.Duration) {
	for _, status := range []string{"2xx", "5xx"} {
		count := 0.0
		for ts := start; !ts.After(end); ts = ts.Add(time.Minute) {
			failed := 600 * failing
			if !ts.Before(outage) && ts.Before(outage.Add(outageLen)) {
				failed = 600
			}
			if status == "2xx" {
				count += 600 - failed
			} else {
				count += failed
			}
			fmt.Fprintf(b, "http_requests_total{job=%q,namespace=\"ml\",status=%q} %g %d\n", job, status, count, ts.Unix())
		}
	}
}

// recordedWeek writes the period group's samples of a service over the
// week before end, as its rules would have recorded them at 0.1 % errors.
func recordedWeek(b *strings.Builder, service string, end time.Time) {
	ls := fmt.Sprintf(`{service=%q,slo="availability"}`, service)
	for _, m := range []struct {
		name  string
		value float64
	}{{rules.DownsampledRequestsMetric, 10}, {rules.DownsampledErrorsMetric, 0.01}} {
		for ts := end.Add(-7*24*time.Hour - rules.PeriodInterval); !ts.After(end); ts = ts.Add(rules.PeriodInterval) {
			fmt.Fprintf(b, "%s%s %g %d\n", m.name, ls, m.value, ts.Unix())
		}
	}
}

// A real Prometheus 2.42 holds three days of raw history for both
// services. outage's rules were deployed just now, after a 20-minute
// outage two days ago that spent 40 % of its 7d budget: its recordings
// cover nothing and say 100 % left, so budget reads the raw history, says
// so, reports 60 % left, and --min-remaining 0.9 holds the rollout.
// steady's recordings cover its week, so budget reads them.
func TestBudgetReadsRawHistoryTheRecordingsMiss(t *testing.T) {
	promtool := testenv.Tool(t, "promtool")
	dir := t.TempDir()
	end := time.Now().Add(-30 * time.Second).Truncate(time.Second)
	var om strings.Builder
	rawCounters(&om, "outage", end.Add(-72*time.Hour), end, 0, end.Add(-48*time.Hour), 20*time.Minute)
	rawCounters(&om, "steady", end.Add(-72*time.Hour), end, 0.001, time.Time{}, 0)
	recordedWeek(&om, "steady", end)
	om.WriteString("# EOF\n")
	backfill(t, promtool, dir, om.String())
	writeRules(t, dir)
	prom := testenv.StartPrometheus(t, dir, "global: {evaluation_interval: 5s}\nrule_files: [rules.yaml]\n")

	report := budgetOnceRecorded(t, prom.URL)
	outage, steady := report["outage"], report["steady"]
	spent := 20 * 60 * 10 / (0.005 * 10 * 7 * 86400) // the outage's errors over the week's budget
	if outage.Source != "raw_history" || outage.BudgetRemaining == nil || math.Abs(*outage.BudgetRemaining-(1-spent)) > 0.01 {
		t.Errorf("outage: from %s, %v left; want the raw history's %.3f", outage.Source, deref(outage.BudgetRemaining), 1-spent)
	}
	if outage.Recordings == nil || outage.Recordings.BudgetRemaining == nil || *outage.Recordings.BudgetRemaining < 0.999 {
		t.Errorf("outage: the recordings should say the budget is whole: %+v", outage.Recordings)
	}
	if steady.Source != "recordings" || steady.BudgetRemaining == nil || math.Abs(*steady.BudgetRemaining-0.8) > 0.01 {
		t.Errorf("steady: from %s, %v left; want the recordings' 0.8", steady.Source, deref(steady.BudgetRemaining))
	}

	code, out, errOut := runSpec(t, historySpec, "budget", "--prometheus", prom.URL, "--min-remaining", "0.9")
	t.Logf("budget --min-remaining 0.9 (outage %v left):\n%s%s", deref(outage.BudgetRemaining), out, errOut)
	if code != 1 || !strings.Contains(errOut, "first outage/availability") {
		t.Errorf("--min-remaining 0.9: exit %d, want 1 naming outage/availability:\n%s", code, errOut)
	}
	// The hours with requests are whole hours of the clock: three days of
	// history hold 71 to 73 of them.
	for _, want := range []string{`4[23]% of 7d   raw history, (2d23h|3d|3d1h) `, `100% of 7d  recordings `, `outage/availability: the recordings cover 0% of 7d; reading its SLI from the raw series`} {
		if !regexp.MustCompile(want).MatchString(out + errOut) {
			t.Errorf("budget does not say %q:\n%s%s", want, out, errOut)
		}
	}
	if code, _, errOut := runSpec(t, historySpec, "budget", "--prometheus", prom.URL, "--min-remaining", "0.5"); code != 0 {
		t.Errorf("--min-remaining 0.5 with 60%% and 80%% left: exit %d:\n%s", code, errOut)
	}
}

func backfill(t *testing.T, promtool, dir, om string) {
	t.Helper()
	path := filepath.Join(dir, "history.om")
	if err := os.WriteFile(path, []byte(om), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", path, filepath.Join(dir, "data")).CombinedOutput(); err != nil {
		t.Fatalf("backfill: %v\n%s", err, out)
	}
}

// writeRules writes the services' rules, every group run every 5s rather
// than the period group's 4m, so the test need not wait for it.
func writeRules(t *testing.T, dir string) {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(historySpec)})
	if err != nil {
		t.Fatal(err)
	}
	var groups []rules.Group
	for _, svc := range res.Spec.Services {
		groups = append(groups, rules.Build(svc)...)
	}
	for i := range groups {
		groups[i].Interval = ""
	}
	data, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

type historyFigures struct {
	BudgetRemaining *float64 `json:"budget_remaining"`
}

type historyRow struct {
	Service string
	historyFigures
	Source     string
	Recordings *historyFigures
	BurnRate   map[string]*float64 `json:"burn_rate"`
}

// budgetOnceRecorded runs budget --format json until both services'
// rules have run once, and returns its rows by service.
func budgetOnceRecorded(t *testing.T, url string) map[string]historyRow {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		code, out, errOut := runSpec(t, historySpec, "budget", "--prometheus", url, "--format", "json")
		var doc struct{ SLOs []historyRow }
		if code == 0 && json.Unmarshal([]byte(out), &doc) == nil && recordedBoth(doc.SLOs) {
			return map[string]historyRow{doc.SLOs[0].Service: doc.SLOs[0], doc.SLOs[1].Service: doc.SLOs[1]}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no complete budget after 30s: exit %d\n%s%s", code, out, errOut)
		}
		time.Sleep(time.Second)
	}
}

// recordedBoth reports whether both rows have every burn rate: every group
// has run.
func recordedBoth(rows []historyRow) bool {
	for _, r := range rows {
		for _, w := range []string{"1h", "6h", "1d"} {
			if r.BurnRate[w] == nil {
				return false
			}
		}
	}
	return len(rows) == 2
}

func deref(f *float64) any {
	if f == nil {
		return "no data"
	}
	return *f
}
