package gputests

import (
	"context"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// TestGeneratedTestsCatchABrokenAnnotation: the generated tests render
// the annotations, so a template that names a label the alert lacks, or
// formats its value otherwise, fails every check where its alert fires.
// (The day-long diagnosis test is left out for speed.)
func TestGeneratedTestsCatchABrokenAnnotation(t *testing.T) {
	plan := fixture(t, "vllm")
	suite := NewCache().Tests(plan)
	for name, broken := range map[string]*strings.Replacer{
		"a label the alert lacks":       strings.NewReplacer("$labels.gpu ", "$labels.GPU ", "$labels.pod ", "$labels.Pod "),
		"the value formatted otherwise": strings.NewReplacer("| humanizePercentage }}", "}}", "| humanize }}", `| printf "%.2f" }}`),
	} {
		t.Run(name, func(t *testing.T) {
			groups := ruleGroups(plan)
			touched := map[string]bool{}
			gpu := groups[len(groups)-1] // after the SLO rules
			for i, r := range gpu.Rules {
				if r.Alert == "" {
					continue
				}
				as := map[string]string{}
				for k, v := range r.Annotations {
					as[k] = broken.Replace(v)
					touched[r.Alert] = touched[r.Alert] || as[k] != v
				}
				gpu.Rules[i].Annotations = as
			}
			want := 0
			for _, tc := range suite.Tests {
				for _, at := range tc.AlertTests {
					if len(at.ExpAlerts) > 0 && touched[at.Alertname] {
						want++
					}
				}
			}
			var out strings.Builder
			failed, err := promtest.Run(context.Background(), &out, writeFiles(t, groups, testFile{"rules_test.yaml", EvaluationInterval, suite.Tests})...)
			if err != nil || failed != want || want < 5 {
				t.Fatalf("%d checks failed (%v); want the %d where an alert with a broken annotation fires\n%s", failed, err, want, out.String())
			}
		})
	}
}

// TestAnnotationsNameTheGPUAndTheValue: GPUMemoryHigh's summary, as the
// generated test expects it, names the GPU's pod and the VRAM in use.
func TestAnnotationsNameTheGPUAndTheValue(t *testing.T) {
	plan := fixture(t, "vllm")
	var got []string
	for _, tc := range NewCache().Tests(plan).Tests {
		for _, at := range tc.AlertTests {
			if at.Alertname == gpualerts.MemoryHigh && len(at.ExpAlerts) > 0 {
				got = append(got, at.ExpAlerts[0].ExpAnnotations["summary"])
			}
		}
	}
	want := plan.Service.Name + ": GPU 0 of pod inference/" // the fixture's namespace and pod
	if len(got) == 0 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], "has 97.5% of its memory in use (over 95%)") {
		t.Errorf("GPUMemoryHigh's summaries %q; want one starting %q and saying 97.5%% of 95%%", got, want)
	}
}

func TestExpandedFillsInLabelsAndValue(t *testing.T) {
	ls := map[string]string{"gpu": "0", "Hostname": "node-a"}
	value := func(v float64) func() (float64, bool) { return func() (float64, bool) { return v, true } }
	for name, c := range map[string]struct {
		template, want string
		value          func() (float64, bool)
	}{
		"labels and a percentage":                {"GPU {{ $labels.gpu }} on {{ $labels.Hostname }} at {{ $value | humanizePercentage }}", "GPU 0 on node-a at 97.5%", value(0.975)},
		"a number":                               {"{{ $value | humanize }} requests", "15 requests", value(15)},
		"escaped braces stay text":               {`a {{ "{{" }}b{{ "}}" }}`, "a {{b}}", value(0)},
		"a label the alert lacks":                {"{{ $labels.pod }}", "<slogen cannot predict summary: the alert has no label pod>", value(0)},
		"a value not predicted":                  {"{{ $value | humanize }}", "<slogen cannot predict summary: no prediction of $value | humanize>", func() (float64, bool) { return 0, false }},
		"a number humanize writes with a prefix": {"{{ $value | humanize }}", "1.5k", value(1500)},
		"another action":                         {"{{ $value }}", "<slogen cannot predict summary: an action it cannot predict>", value(1)},
	} {
		if got := expanded(map[string]string{"summary": c.template}, ls, c.value)["summary"]; got != c.want {
			t.Errorf("%s: %q expands to %q, want %q", name, c.template, got, c.want)
		}
	}
}

// TestEveryFiringAlertsAnnotationsArePredicted: each value an annotation
// shows is predicted at every check where its alert fires, in every
// fixture, rates and increases included.
func TestEveryFiringAlertsAnnotationsArePredicted(t *testing.T) {
	for _, name := range fixtures {
		suite := NewCache().Tests(fixture(t, name))
		for _, tc := range append(suite.Tests, suite.Diagnosis...) {
			for _, at := range tc.AlertTests {
				for _, exp := range at.ExpAlerts {
					for k, v := range exp.ExpAnnotations {
						if strings.Contains(v, "slogen cannot predict") {
							t.Errorf("%s: %s at %s: %s %s", name, at.Alertname, at.EvalTime, k, v)
						}
					}
				}
			}
		}
	}
}

// TestRateAlertsShowTheirValue: the alerts that compare a rate or an
// increase show it, as the generated tests expect it: the scenarios'
// rates, read from their counters, in the fixtures that have each alert.
func TestRateAlertsShowTheirValue(t *testing.T) {
	want := map[string]string{
		gpualerts.Throttled:       "clocks held down 55% of the time (over 10%)",
		gpualerts.PCIeReplays:     "30 PCIe retries a minute (over 10)",
		gpualerts.ECCErrors:       "4 double-bit ECC errors in the last 10m",
		gpualerts.NVLinkErrors:    "16 NVLink errors in the last 10m",
		gpualerts.Preemptions:     "13 preemptions a minute (over 10)",
		gpualerts.QueueTimeHigh:   "requests wait 6s on average before they are scheduled (over 5s)",
		gpualerts.OOMEvents:       "3 GPU OOMs in the last day (over 2)",
		gpualerts.Saturated:       "saturated: mean latency 2s, over 1.5× the same hour yesterday",
		gpualerts.PrefixCacheCold: "prefix-cache hit ratio 24%, below 0.5× the same hour yesterday",
	}
	shown := map[string]bool{}
	for _, name := range fixtures {
		suite := NewCache().Tests(fixture(t, name))
		for _, tc := range append(suite.Tests, suite.Diagnosis...) {
			for _, at := range tc.AlertTests {
				w, ok := want[at.Alertname]
				if !ok || len(at.ExpAlerts) == 0 {
					continue
				}
				if got := at.ExpAlerts[0].ExpAnnotations["summary"]; !strings.Contains(got, w) {
					t.Errorf("%s: %s's summary %q; want it to say %q", name, at.Alertname, got, w)
				}
				shown[at.Alertname] = true
			}
		}
	}
	for a := range want {
		if !shown[a] {
			t.Errorf("%s fires in no fixture's tests", a)
		}
	}
}
