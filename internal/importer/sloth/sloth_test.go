package sloth

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/importer"
)

const plain = `version: "prometheus/v1"
service: "checkout"
labels:
  owner: "payments"
  tier: "1"
slos:
  - name: "requests-availability"
    objective: 99.9
    description: "Answers that are not 5xx."
    sli:
      events:
        error_query: sum(rate(http_requests_total{job="checkout",code=~"5.."}[{{.window}}]))
        total_query: sum(rate(http_requests_total{job="checkout"}[{{ .window }}]))
    alerting:
      name: CheckoutErrors
      labels:
        category: "availability"
      annotations:
        summary: "Checkout fails"
      page_alert:
        labels:
          severity: pager
          routing_key: payments
      ticket_alert:
        labels:
          severity: slack
  - name: "Latency"
    objective: 99
    sli:
      raw:
        error_ratio_query: 1 - avg(avg_over_time(checkout_fast_ratio[{{.window}}]))
    alerting:
      name: CheckoutSlow
      labels:
        category: "latency"
      page_alert:
        labels:
          severity: pager
      ticket_alert:
        disable: true
  - name: "plugged"
    objective: 99
    sli:
      plugin:
        id: sloth-common/availability
        options: {job: checkout}
    alerting:
      name: CheckoutPlugged
`

func convertOne(t *testing.T, file, data string) Converted {
	t.Helper()
	services, err := Read(file, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Convert(services)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 {
		t.Fatalf("got %d services, want 1", len(out))
	}
	return out[0]
}

func TestConvertMapsEachSLIAndSaysWhatIsLost(t *testing.T) {
	c := convertOne(t, "checkout.yml", plain)
	events, raw, plugin := c.SLOs[0], c.SLOs[1], c.SLOs[2]

	if want := `sum(rate(http_requests_total{job="checkout",code=~"5.."}[$window]))`; events.Bad != want {
		t.Errorf("events bad = %s, want %s", events.Bad, want)
	}
	if want := `sum(rate(http_requests_total{job="checkout"}[$window]))`; events.Total != want {
		t.Errorf("events total = %s, want %s ({{ .window }} with spaces is the same template)", events.Total, want)
	}
	if raw.Name != "latency-ratio" || raw.Total != "vector(1)" || !strings.Contains(raw.Bad, "[$window]") {
		t.Errorf("raw SLO = %q bad %q total %q, want latency-ratio (a kind's name is renamed), the ratio as bad and vector(1) as total", raw.Name, raw.Bad, raw.Total)
	}
	if !plugin.Skip || !has(plugin.Notes.Dropped, "sli.plugin sloth-common/availability") {
		t.Errorf("an SLI plugin must be left out and reported, got skip=%v notes %q", plugin.Skip, plugin.Notes.Dropped)
	}
	if c.Metric != "http_requests_total" {
		t.Errorf("metrics.requests = %q, want the first total query's metric", c.Metric)
	}
	if c.Page != "pager" || c.Ticket != "slack" {
		t.Errorf("severities = %q, %q; want pager, slack", c.Page, c.Ticket)
	}
	// owner is the service's; category differs between the SLOs, and tier
	// is slogen's own label.
	if len(c.Labels) != 1 || c.Labels[0].Key != "owner" {
		t.Errorf("alert labels = %v, want owner alone", c.Labels)
	}
	for _, want := range []string{`labels tier="1" (checkout.yml:5)`} {
		if !has(c.Notes.Dropped, want) {
			t.Errorf("service notes lack %q: %q", want, c.Notes.Dropped)
		}
	}
	for _, want := range []string{`label category="availability" (checkout.yml:17)`, "alerting.annotations.summary (checkout.yml:19)", `page_alert label routing_key="payments" (checkout.yml:23)`} {
		if !has(events.Notes.Dropped, want) {
			t.Errorf("SLO notes lack %q: %q", want, events.Notes.Dropped)
		}
	}
	if !has(raw.Notes.Dropped, "ticket_alert.disable") || !has(raw.Notes.Changed, `SLO name "Latency" is "latency-ratio"`) {
		t.Errorf("raw SLO notes = %+v, want the disabled ticket and the rename", raw.Notes)
	}
}

func TestReadTheKubernetesResource(t *testing.T) {
	const resource = `apiVersion: sloth.slok.dev/v1
kind: PrometheusServiceLevel
metadata: {name: checkout, namespace: monitoring}
spec:
  service: "checkout"
  slos:
    - name: "requests-availability"
      objective: 99.5
      sli:
        events:
          errorQuery: sum(rate(http_requests_total{code=~"5.."}[{{.window}}]))
          totalQuery: sum(rate(http_requests_total[{{.window}}]))
      alerting:
        name: CheckoutErrors
        pageAlert:
          labels: {severity: pager}
`
	c := convertOne(t, "checkout-k8s.yml", resource)
	s := c.SLOs[0]
	if s.Bad != `sum(rate(http_requests_total{code=~"5.."}[$window]))` || s.From.Objective != 99.5 || c.Page != "pager" {
		t.Errorf("got bad %q objective %v page %q", s.Bad, s.From.Objective, c.Page)
	}
	if s.From.At.Line != 7 {
		t.Errorf("SLO at line %d, want 7", s.From.At.Line)
	}
}

func TestReadNamesFileLineAndFieldOfEveryProblem(t *testing.T) {
	const bad = `version: "prometheus/v1"
service: "checkout"
slos:
  - name: "a"
    objective: 101
    sli:
      events:
        error_query: x
    alerting:
      name: A
      pageAlert: {}
  - name: "b"
    objective: 99
    sli: {}
`
	_, err := Read("bad.yml", []byte(bad))
	if err == nil {
		t.Fatal("want errors")
	}
	for _, want := range []string{
		`bad.yml:5: slos[0].objective: want a percentage in (0, 100]`,
		`bad.yml:8: slos[0].sli.events.total_query: missing`,
		`bad.yml:11: slos[0].alerting.pageAlert: not a field Sloth v0.16.0 knows here (a version: "prometheus/v1" file spells it page_alert)`,
		`bad.yml:14: slos[1].sli: want exactly one of events, raw or plugin (got 0)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

func TestNotPromQLLeavesTheSLOOut(t *testing.T) {
	s := convertSLO(SLO{Name: "vm", Objective: 99, ErrorQuery: `histogram_share(0.2, sum(rate(x_bucket[{{.window}}])))`, TotalQuery: `sum(rate(x_count[{{.window}}]))`})
	if !s.Skip || !has(s.Notes.Dropped, "not Prometheus 2.42's PromQL") {
		t.Errorf("a MetricsQL query must leave the SLO out: skip=%v %q", s.Skip, s.Notes.Dropped)
	}
}

func TestSpecQuotesQueriesForCUE(t *testing.T) {
	c := convertOne(t, "checkout.yml", plain)
	c.SLOs[0].Bad = `sum(rate(x{le=~"1(\\.0)?"}[$window]))`
	out, err := importer.Spec(Imported([]Converted{c}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`bad:         "sum(rate(x{le=~\"1(\\\\.0)?\"}[$window]))"`,
		`"latency-ratio": {`,
		`// "plugged" (checkout.yml:41) is left out: sli.plugin sloth-common/availability`,
		`for: {ticket_fast: "0s", ticket_slow: "0s"}`,
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("spec lacks %s:\n%s", want, out)
		}
	}
}

func has(lines []string, part string) bool {
	for _, l := range lines {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

func TestRunbookIsCarriedOnlyWhenEverySLOSharesIt(t *testing.T) {
	slo := func(name, runbook string) SLO {
		return SLO{Name: name, Objective: 99, ErrorQuery: "sum(rate(e[{{.window}}]))", TotalQuery: "sum(rate(t[{{.window}}]))",
			Annotations: []Label{{Key: "runbook", Value: runbook}, {Key: "title", Value: "t"}}}
	}
	same := convertService(Service{Name: "a", SLOs: []SLO{slo("x", "https://r/1"), slo("y", "https://r/1")}})
	if same.Runbook != "https://r/1" || !has(same.SLOs[0].Notes.Exact, "alerting.annotations.runbook as alerting.runbook_url") || !has(same.SLOs[0].Notes.Dropped, "alerting.annotations.title") {
		t.Errorf("shared runbook: got %q, notes %+v", same.Runbook, same.SLOs[0].Notes)
	}
	apart := convertService(Service{Name: "a", SLOs: []SLO{slo("x", "https://r/1"), slo("y", "https://r/2")}})
	if apart.Runbook != "" || !has(apart.SLOs[1].Notes.Dropped, "the other SLOs link elsewhere") {
		t.Errorf("different runbooks: got %q, notes %+v", apart.Runbook, apart.SLOs[1].Notes)
	}
}
