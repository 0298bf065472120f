package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// incident is synthetic traffic of 10 requests a second: errorRatio(minute)
// is the share that fail (and, for a latency SLO, are slow).
type incident struct {
	name       string
	minutes    int
	errorRatio func(minute int) float64
	fires      []string // Sloth's tiers the incident must fire, so that the comparison is not empty
}

// parityExample is one of Sloth's examples, the rules Sloth writes for
// it and the counters its queries read, given the good and bad events.
// imported is the file slogen imports: the Sloth example itself, or the
// same SLOs written as OpenSLO v1 (testdata/openslo-v1-parity), whose
// rules must fire as Sloth's do for the Sloth file.
type parityExample struct {
	file, service string
	series        func(good, bad float64) map[string]float64
	imported      string
}

var parityExamples = func() []parityExample {
	gettingStarted := func(good, bad float64) map[string]float64 {
		return map[string]float64{
			`http_request_duration_seconds_count{job="myservice",code="200"}`: good,
			`http_request_duration_seconds_count{job="myservice",code="500"}`: bad,
		}
	}
	// Bad requests fail and are slow: both SLOs burn, the latency one
	// (99 %) ten times slower than the availability one (99.9 %).
	apiserver := func(good, bad float64) map[string]float64 {
		return map[string]float64{
			`apiserver_request_total{code="200"}`:                            good,
			`apiserver_request_total{code="500"}`:                            bad,
			`apiserver_request_duration_seconds_count{verb="GET"}`:           good + bad,
			`apiserver_request_duration_seconds_bucket{verb="GET",le="0.4"}`: good,
		}
	}
	return []parityExample{
		{"getting-started.yml", "myservice", gettingStarted, "testdata/sloth-v0.16.0/getting-started.yml"},
		{"kubernetes-apiserver.yml", "k8s-apiserver", apiserver, "testdata/sloth-v0.16.0/kubernetes-apiserver.yml"},
		{"getting-started.yml", "myservice", gettingStarted, "testdata/openslo-v1-parity/getting-started.yaml"},
		{"kubernetes-apiserver.yml", "k8s-apiserver", apiserver, "testdata/openslo-v1-parity/kubernetes-apiserver.yaml"},
	}
}()

// TestImportedAlertsFireNoLaterThanSloths replays the same incidents
// through the rules Sloth v0.16.0 writes for its examples and through the
// rules slogen builds from their import, from Sloth's file and from the
// same SLOs written as OpenSLO v1, in process: per SLO, slogen's
// page and its first ticket fire whenever Sloth's do and no later, though
// the tickets' day and three-day windows read the period group's samples,
// taken every 4 minutes (docs/slo-rules.md, "Tickets no later").
func TestImportedAlertsFireNoLaterThanSloths(t *testing.T) {
	if testing.Short() {
		t.Skip("replays days of history")
	}
	// Three days of calm fill both rule sets' longest alert window.
	const calm = 3 * 24 * 60
	incidents := []incident{
		// An hour of full outage.
		{"outage", calm + 3*60, func(m int) float64 { return step(m, calm, calm+60, 1) }, []string{"page", "ticket"}},
		// 0.5 % errors: 5 times the 99.9 % budget's rate, a ticket, no page.
		{"slow-burn", calm + 20*60, func(m int) float64 { return step(m, calm, 1<<30, 0.005) }, []string{"ticket"}},
		// 0.8 % errors: 8 times the 99.9 % budget's rate, a page after hours.
		{"fast-burn", calm + 8*60, func(m int) float64 { return step(m, calm, 1<<30, 0.008) }, []string{"page"}},
	}
	for _, ex := range parityExamples {
		sloth, err := os.ReadFile("testdata/sloth-v0.16.0/generated/" + ex.file)
		if err != nil {
			t.Fatal(err)
		}
		slogen := importedRules(t, ex.imported, ex.service)
		for _, inc := range incidents {
			t.Run(ex.imported+"/"+inc.name, func(t *testing.T) {
				inputs := traffic(t, inc, ex.series)
				end := time.Unix(0, 0).Add(time.Duration(inc.minutes) * time.Minute)
				theirs := firstFiring(t, sloth, inputs, end, "sloth_slo", "sloth_severity")
				ours := firstFiring(t, slogen, inputs, end, "slo", "tier")
				t.Logf("Sloth: %v; slogen: %v", theirs, ours)
				fired := map[string]bool{}
				for key, when := range theirs {
					slo, tier, _ := strings.Cut(key, "/")
					fired[tier] = true
					if tier == "page" {
						compare(t, key, when, at(ours, key))
						continue
					}
					compare(t, key, when, earliest(at(ours, slo+"/ticket_fast"), at(ours, slo+"/ticket_slow")))
				}
				for _, tier := range inc.fires {
					if !fired[tier] {
						t.Errorf("Sloth's %s never fired: the incident proves nothing", tier)
					}
				}
			})
		}
	}
}

// TestSteadyErrorsJustUnderTheThresholdOpenNoTicket replays four days of
// a steady error ratio 0.1 % under the slow ticket's threshold of a 99.9 %
// SLO through the rules slogen builds from Sloth's examples: the three-day
// window, which adds the last 5 minutes' errors to its samples', reads it
// just over, and the six-hour one, read exactly, keeps the ticket shut.
func TestSteadyErrorsJustUnderTheThresholdOpenNoTicket(t *testing.T) {
	if testing.Short() {
		t.Skip("replays days of history")
	}
	steady := incident{name: "just-under", minutes: 4 * 24 * 60, errorRatio: func(int) float64 { return 0.999 * 0.001 }}
	for _, ex := range parityExamples[:2] {
		inputs := traffic(t, steady, ex.series)
		end := time.Unix(0, 0).Add(time.Duration(steady.minutes) * time.Minute)
		for key, when := range firstFiring(t, importedRules(t, ex.imported, ex.service), inputs, end, "slo", "tier") {
			if strings.HasSuffix(key, "/ticket_slow") || strings.HasSuffix(key, "/ticket_fast") {
				t.Errorf("%s: %s fires at %v", ex.imported, key, when)
			}
		}
	}
}

// compare fails when Sloth's alert fired and slogen's did not, or later.
func compare(t *testing.T, tier string, theirs, ours time.Duration) {
	t.Helper()
	switch {
	case theirs < 0 && ours >= 0:
		t.Logf("%s: slogen fires at %v, Sloth never", tier, ours)
	case theirs < 0:
	case ours < 0:
		t.Errorf("%s: Sloth fires at %v, slogen never", tier, theirs)
	case ours > theirs:
		t.Errorf("%s: slogen fires at %v, after Sloth at %v", tier, ours, theirs)
	}
}

func step(m, from, to int, v float64) float64 {
	if m >= from && m < to {
		return v
	}
	return 0
}

// traffic is an incident's counters, one sample a minute.
func traffic(t *testing.T, inc incident, series func(good, bad float64) map[string]float64) []promtest.Input {
	var good, bad float64
	points := map[string][]promql.FPoint{}
	for m := 0; m <= inc.minutes; m++ {
		for sel, v := range series(good, bad) {
			points[sel] = append(points[sel], promql.FPoint{T: int64(m) * 60_000, F: v})
		}
		r := inc.errorRatio(m)
		good += 600 * (1 - r)
		bad += 600 * r
	}
	var inputs []promtest.Input
	for sel, pts := range points {
		ls, err := promcompat.Parser().ParseMetric(sel)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, promtest.Input{Labels: ls, Samples: pts})
	}
	return inputs
}

// firstFiring replays a rule file and gives, per SLO and tier ("slo/tier"),
// how long after the start its first burn-rate alert fired.
func firstFiring(t *testing.T, rules []byte, inputs []promtest.Input, end time.Time, sloLabel, tierLabel string) map[string]time.Duration {
	t.Helper()
	r, err := promtest.Replay{Every: time.Minute}.Run(context.Background(), rules, inputs, time.Unix(0, 0), end)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first := map[string]time.Duration{}
	for _, s := range r.Spans {
		slo, tier := s.Labels.Get(sloLabel), s.Labels.Get(tierLabel)
		if slo == "" || tier == "" || (s.Labels.Get("alertname") != "SLOErrorBudgetBurn" && tierLabel == "tier") {
			continue
		}
		key := slo + "/" + tier
		at := s.FiringAt.Sub(time.Unix(0, 0))
		if prev, ok := first[key]; !ok || at < prev {
			first[key] = at
		}
	}
	return first
}

// importedRules imports a Sloth file, builds it and returns its rules.
func importedRules(t *testing.T, file, service string) []byte {
	t.Helper()
	dir := t.TempDir()
	spec := filepath.Join(dir, "imported.cue")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"import", "--out", spec, file}, &stdout, &stderr); code != exitOK {
		t.Fatalf("import exited %d:\n%s", code, &stderr)
	}
	if code := run([]string{"build", "--out", filepath.Join(dir, "out"), spec}, &stdout, &stderr); code != exitOK {
		t.Fatalf("build exited %d:\n%s", code, &stderr)
	}
	rules, err := os.ReadFile(filepath.Join(dir, "out", service, "rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return rules
}

// at is when a tier first fired, -1 standing for never.
func at(first map[string]time.Duration, tier string) time.Duration {
	if d, ok := first[tier]; ok {
		return d
	}
	return -1
}

// earliest is the sooner of two firing times, -1 standing for never.
func earliest(a, b time.Duration) time.Duration {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}
