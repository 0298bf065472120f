package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/internal/promtest"
)

// incident is synthetic traffic for Sloth's getting-started service:
// errorRatio(minute) is the share of its 10 requests a second that fail.
type incident struct {
	name       string
	minutes    int
	errorRatio func(minute int) float64
	fires      []string // Sloth's tiers the incident must fire, so that the comparison is not empty
}

// periodSampling is how often slogen's period group samples the 5m rates
// its tickets' 1d and 3d windows average (docs/slo-rules.md): a ticket
// can trail Sloth's, which reads those windows from the raw series, by up
// to one sample. Issue 25 asks for no later; this is the gap that stays.
const periodSampling = 4 * time.Minute

// TestImportedAlertsFireNoLaterThanSloths replays the same incidents
// through the rules Sloth v0.16.0 generates for its getting-started
// example and through the rules slogen builds from its import, in
// process: slogen's page fires whenever Sloth's does and no later, and
// its ticket no later than periodSampling after Sloth's.
func TestImportedAlertsFireNoLaterThanSloths(t *testing.T) {
	if testing.Short() {
		t.Skip("replays days of history")
	}
	// Three days of calm fill both rule sets' longest alert window.
	const calm = 3 * 24 * 60
	incidents := []incident{
		// An hour of full outage.
		{"outage", calm + 3*60, func(m int) float64 { return step(m, calm, calm+60, 1) }, []string{"page", "ticket"}},
		// 0.5 % errors: 5 times the budget's rate, a ticket, no page.
		{"slow-burn", calm + 20*60, func(m int) float64 { return step(m, calm, 1<<30, 0.005) }, []string{"ticket"}},
		// 0.8 % errors: 8 times the budget's rate, a page after hours.
		{"fast-burn", calm + 8*60, func(m int) float64 { return step(m, calm, 1<<30, 0.008) }, []string{"page"}},
	}
	sloth, err := os.ReadFile("testdata/sloth-v0.16.0/generated/getting-started.yml")
	if err != nil {
		t.Fatal(err)
	}
	slogen := importedRules(t, "testdata/sloth-v0.16.0/getting-started.yml")
	for _, inc := range incidents {
		t.Run(inc.name, func(t *testing.T) {
			inputs := traffic(inc)
			end := time.Unix(0, 0).Add(time.Duration(inc.minutes) * time.Minute)
			theirs := firstFiring(t, sloth, inputs, end, "sloth_severity")
			ours := firstFiring(t, slogen, inputs, end, "tier")
			t.Logf("Sloth: %v; slogen: %v", theirs, ours)
			for _, tier := range inc.fires {
				if at(theirs, tier) < 0 {
					t.Fatalf("Sloth's %s never fired: the incident proves nothing", tier)
				}
			}
			compare(t, "page", at(theirs, "page"), at(ours, "page"), 0)
			compare(t, "ticket", at(theirs, "ticket"), earliest(at(ours, "ticket_fast"), at(ours, "ticket_slow")), periodSampling)
		})
	}
}

// compare fails when Sloth's alert fired and slogen's did not, or more
// than slack later.
func compare(t *testing.T, tier string, theirs, ours, slack time.Duration) {
	t.Helper()
	switch {
	case theirs < 0 && ours >= 0:
		t.Logf("%s: slogen fires at %v, Sloth never", tier, ours)
	case theirs < 0:
	case ours < 0:
		t.Errorf("%s: Sloth fires at %v, slogen never", tier, theirs)
	case ours > theirs+slack:
		t.Errorf("%s: slogen fires at %v, more than %v after Sloth at %v", tier, ours, slack, theirs)
	}
}

func step(m, from, to int, v float64) float64 {
	if m >= from && m < to {
		return v
	}
	return 0
}

// traffic is the incident's two counters, one sample a minute.
func traffic(inc incident) []promtest.Input {
	ok := labels.FromStrings("__name__", "http_request_duration_seconds_count", "job", "myservice", "code", "200")
	failed := labels.FromStrings("__name__", "http_request_duration_seconds_count", "job", "myservice", "code", "500")
	var good, bad float64
	var okPts, badPts []promql.FPoint
	for m := 0; m <= inc.minutes; m++ {
		ts := int64(m) * 60_000
		okPts = append(okPts, promql.FPoint{T: ts, F: good})
		badPts = append(badPts, promql.FPoint{T: ts, F: bad})
		r := inc.errorRatio(m)
		good += 600 * (1 - r)
		bad += 600 * r
	}
	return []promtest.Input{{Labels: ok, Samples: okPts}, {Labels: failed, Samples: badPts}}
}

// firstFiring replays a rule file and gives, per value of the tier label,
// how long after the start its first alert fired.
func firstFiring(t *testing.T, rules []byte, inputs []promtest.Input, end time.Time, tierLabel string) map[string]time.Duration {
	t.Helper()
	r, err := promtest.Replay{Every: time.Minute}.Run(context.Background(), rules, inputs, time.Unix(0, 0), end)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	first := map[string]time.Duration{}
	for _, s := range r.Spans {
		if s.Labels.Get("alertname") != "SLOErrorBudgetBurn" && s.Labels.Get("sloth_severity") == "" {
			continue
		}
		tier := s.Labels.Get(tierLabel)
		at := s.FiringAt.Sub(time.Unix(0, 0))
		if prev, ok := first[tier]; !ok || at < prev {
			first[tier] = at
		}
	}
	return first
}

// importedRules imports a Sloth file, builds it and returns its rules.
func importedRules(t *testing.T, file string) []byte {
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
	rules, err := os.ReadFile(filepath.Join(dir, "out", "myservice", "rules.yaml"))
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
