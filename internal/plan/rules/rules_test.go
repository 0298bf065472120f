package rules_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/spec"
)

// A spec whose values would break naive string building: quotes,
// backslashes, braces, template markers, non-ASCII; and whose SLOs have
// two periods.
const awkward = `package slo
services: "odd-one": {
	runtime: "vllm"
	model:   "org/model \"v2\" {beta} \\ ü"
	selector: {namespace: "ns\"x", job: "job\\y", team_label: "{{ $labels.x }}"}
	alerting: {runbook_url: "https://wiki/{{ .Service }}", labels: {owner: "a\"b"}}
	slos: {availability: objective: 99.9, ttft: {objective: 99, threshold: "1s"}, "slow-latency": {sli: "latency", objective: 95, threshold: "2s", window: "7d"}}
}`

func load(t *testing.T, src string) model.Service {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec.Services[0]
}

func TestRuleFilesPassPrometheus242Checks(t *testing.T) {
	svc := load(t, awkward)
	out, err := rules.Marshal(rules.File{Groups: rules.Build(svc)})
	if err != nil {
		t.Fatal(err)
	}
	if errs := promcompat.CheckRules("rules.yaml", out); len(errs) > 0 {
		t.Fatalf("%v\n%s", errs, out)
	}
	if !strings.HasPrefix(string(out), genfile.Header) {
		t.Error("no generated-code header")
	}
}

// Label values from the spec reach PromQL escaped: parsing the recorded
// expression gives back exactly the spec's values.
func TestSpecValuesAreEscapedInPromQL(t *testing.T) {
	svc := load(t, awkward)
	want := map[string]string{"namespace": `ns"x`, "job": `job\y`, "team_label": "{{ $labels.x }}", "model_name": `org/model "v2" {beta} \ ü`}
	for _, r := range rules.Build(svc)[0].Rules {
		if r.Record != rules.Requests(model.BaseWindow) || r.Labels["slo"] != "ttft" {
			continue
		}
		e, err := parser.NewParser(parser.Options{}).ParseExpr(pql.Print(r.Expr))
		if err != nil {
			t.Fatal(err)
		}
		for _, ms := range parser.ExtractSelectors(e) {
			for _, m := range ms {
				if v, ok := want[m.Name]; ok && m.Value != v {
					t.Errorf("%s = %q, want %q", m.Name, m.Value, v)
				}
			}
		}
		return
	}
	t.Fatal("no ttft request recording")
}

func TestSpecTextIsNotRunAsATemplate(t *testing.T) {
	svc := load(t, awkward)
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if url, ok := r.Annotations["runbook_url"]; ok && url != `https://wiki/{{ "{{" }} .Service {{ "}}" }}` {
				t.Errorf("%s runbook_url %q: template markers not escaped", r.Alert, url)
			}
		}
	}
}

func TestEveryAlertCarriesRoutingLabels(t *testing.T) {
	svc := load(t, awkward)
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if r.Alert == "" {
				continue
			}
			for _, l := range []string{"service", "severity"} {
				if r.Labels[l] == "" {
					t.Errorf("%s lacks %s", r.Alert, l)
				}
			}
			if r.Alert == rules.BurnAlert {
				for _, l := range []string{"slo", "tier"} {
					if r.Labels[l] == "" {
						t.Errorf("%s lacks %s", r.Alert, l)
					}
				}
			}
		}
	}
}

// One page per SLO, whichever page tier burns: a label that named the
// tier or its windows would make a new alert, and a new notification,
// when the other tier took over. The tickets keep a rule per tier.
func TestEachSLOHasOnePageAndTwoTickets(t *testing.T) {
	svc := load(t, awkward)
	tiers := map[string][]string{}
	for _, g := range rules.Build(svc) {
		for _, r := range g.Rules {
			if r.Alert != rules.BurnAlert {
				continue
			}
			tiers[r.Labels["slo"]] = append(tiers[r.Labels["slo"]], r.Labels["tier"])
			if r.Labels["tier"] == "page" && (r.Labels["long_window"] != "" || r.Labels["short_window"] != "") {
				t.Errorf("slo %s: the page carries window labels %v", r.Labels["slo"], r.Labels)
			}
		}
	}
	for _, slo := range svc.SLOs {
		if got := strings.Join(tiers[slo.Name], " "); got != "page ticket_fast ticket_slow" {
			t.Errorf("slo %s: burn alerts by tier %q, want page ticket_fast ticket_slow", slo.Name, got)
		}
	}
}

// The SLOs of a service share its recordings, so each period's must
// average the samples of its own SLOs and of no other.
func TestEachPeriodAveragesItsOwnSLOs(t *testing.T) {
	svc := load(t, awkward)
	dir := t.TempDir()
	out, err := rules.Marshal(rules.File{Groups: rules.Build(svc)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(dir, "rules_test.yaml")
	if err := os.WriteFile(test, []byte(periodTest), 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &log, test); failed > 0 || err != nil {
		t.Errorf("%d failed (%v):\n%s", failed, err, log.String())
	}
}

// periodTest gives two of awkward's SLOs their own error rates in the
// period group's samples, 2 and 3 per second; availability's errors count
// as 0 without series, and the rules sample that.
const periodTest = `rule_files: [rules.yaml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - {series: 'slogen:slo_errors_downsampled:rate5m{service="odd-one",slo="ttft"}', values: 2x10}
      - {series: 'slogen:slo_errors_downsampled:rate5m{service="odd-one",slo="slow-latency"}', values: 3x10}
    promql_expr_test:
      - expr: slogen:slo_errors:rate30d
        eval_time: 10m
        exp_samples:
          - {labels: 'slogen:slo_errors:rate30d{service="odd-one",slo="availability"}', value: 0}
          - {labels: 'slogen:slo_errors:rate30d{service="odd-one",slo="ttft"}', value: 2}
      - expr: slogen:slo_errors:rate1w
        eval_time: 10m
        exp_samples:
          - {labels: 'slogen:slo_errors:rate1w{service="odd-one",slo="slow-latency"}', value: 3}
`

// The alerts' text says what burnt in plain words, and names the SLO that
// SLOMetricsAbsent is about rather than "an SLO".
func TestAlertTextSaysWhatBurnt(t *testing.T) {
	svc := load(t, `package slo
services: chat: {runtime: "vllm", slos: availability: objective: 99.5}`)
	slo := svc.SLOs[0]
	slow := rules.BurnAnnotations(svc, slo, model.RuleOf(model.TicketSlow))["summary"]
	if want := "chat has spent its availability error budget faster than it earns it over 3d"; slow != want {
		t.Errorf("the slow ticket's summary reads %q, want %q", slow, want)
	}
	page := rules.BurnAnnotations(svc, slo, model.PageRule)
	for _, want := range []string{"at more than 14.4x the rate it earns it over 1h", "at more than 6x the rate it earns it over 6h"} {
		if !strings.Contains(page["summary"], want) {
			t.Errorf("the page's summary %q does not say %q", page["summary"], want)
		}
	}
	absent := rules.NoDataAnnotationsAt(svc, slo)
	if want := "the metrics behind the availability SLO of chat are gone"; absent["summary"] != want {
		t.Errorf("SLOMetricsAbsent's summary reads %q, want %q", absent["summary"], want)
	}
}
