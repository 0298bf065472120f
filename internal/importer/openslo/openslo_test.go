package openslo

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/importer"
)

const set = `apiVersion: openslo/v1
kind: DataSource
metadata: {name: prom}
spec: {type: Prometheus}
---
apiVersion: openslo/v1
kind: SLI
metadata: {name: requests}
spec:
  ratioMetric:
    counter: true
    good:
      metricSource:
        metricSourceRef: prom
        spec: {query: 'sum(rate(requests_total{job="api",code!~"5.."}[1m]))'}
    total:
      metricSource:
        metricSourceRef: prom
        spec: {query: 'sum(rate(requests_total{job="api"}[1m]))'}
---
apiVersion: openslo/v1
kind: SLO
metadata: {name: availability}
spec:
  service: api
  indicatorRef: requests
  timeWindow: [{duration: 4w, isRolling: true}]
  budgetingMethod: Occurrences
  objectives: [{target: 0.999}]
---
apiVersion: openslo/v1
kind: SLO
metadata: {name: p99}
spec:
  service: api
  indicator:
    metadata: {name: p99}
    spec:
      thresholdMetric:
        metricSource:
          type: Prometheus
          spec: {query: 'histogram_quantile(0.99, sum by (le) (rate(latency_seconds_bucket{job="api"}[{{.window}}])))'}
  timeWindow:
    - duration: 1M
      calendar: {startTime: "2026-01-01 00:00:00", timeZone: UTC}
  budgetingMethod: Timeslices
  objectives: [{op: lte, value: 0.5, targetPercent: 99, timeSliceTarget: 0.95, timeSliceWindow: 5m}]
`

func convert(t *testing.T, data string) []importer.Service {
	t.Helper()
	objects, err := Read("set.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	services, err := Convert(objects)
	if err != nil {
		t.Fatal(err)
	}
	return services
}

func TestConvertMapsEachSLOAndSaysWhatChanged(t *testing.T) {
	services := convert(t, set)
	if len(services) != 1 || services[0].Name != "api" || len(services[0].SLOs) != 2 {
		t.Fatalf("want one service api with two SLOs, got %+v", services)
	}
	avail, p99 := services[0].SLOs[0], services[0].SLOs[1]
	if avail.Objective != 99.9 || avail.Window != "28d" {
		t.Errorf("availability: objective %v window %q, want 99.9 (target 0.999) and 28d (4w)", avail.Objective, avail.Window)
	}
	if want := `sum(rate(requests_total{code=~"5..",job="api"}[$window]))`; avail.Bad != want {
		t.Errorf("bad = %s, want %s: the total with the good query's one matcher negated", avail.Bad, want)
	}
	if want := `sum(rate(requests_total{job="api"}[$window]))`; avail.Total != want {
		t.Errorf("total = %s, want %s: [1m] read as slogen's [$window]", avail.Total, want)
	}
	if !has(avail.Notes.Changed, "its ranges become [$window]") || !has(avail.Notes.Exact, "timeWindow 4w rolling as window 28d") {
		t.Errorf("availability notes = %+v", avail.Notes)
	}
	wantTotal := `sum(rate(latency_seconds_count{job="api"}[$window]))`
	if want := wantTotal + ` - (sum(rate(latency_seconds_bucket{job="api",le="0.5"}[$window])) or vector(0))`; p99.Bad != want || p99.Total != wantTotal {
		t.Errorf("threshold metric: bad %s total %s, want %s over %s: requests over the p99's bound", p99.Bad, p99.Total, want, wantTotal)
	}
	if !has(p99.Notes.Changed, `le="0.5" must be one of the histogram's buckets`) {
		t.Errorf("p99 notes do not ask to check the bucket: %q", p99.Notes.Changed)
	}
	for _, want := range []string{"timeWindow 1M calendar-aligned (startTime 2026-01-01 00:00:00, timeZone UTC, at set.yaml:44)", "budgetingMethod Timeslices (timeSliceTarget 0.95, timeSliceWindow 5m"} {
		if !has(p99.Notes.Dropped, want) {
			t.Errorf("p99 notes lack %q: %q", want, p99.Notes.Dropped)
		}
	}
	if p99.Window != "30d" {
		t.Errorf("calendar month: window %q, want a rolling 30d", p99.Window)
	}
}

// A threshold on a quantile reads as the requests under its bound only
// where the target is that quantile, and only for an upper bound; any
// other threshold metric is the share of 5m evaluations that meet it.
func TestThresholdMetricsOtherThanAQuantilesBoundReadTime(t *testing.T) {
	for name, objective := range map[string]string{
		"target not the quantile": "{op: lte, value: 0.5, targetPercent: 99.9}",
		"lower bound":             "{op: gte, value: 0.5, targetPercent: 99}",
	} {
		data := strings.Replace(set, "{op: lte, value: 0.5, targetPercent: 99, timeSliceTarget: 0.95, timeSliceWindow: 5m}", objective, 1)
		p99 := convertOne(t, data).SLOs[1]
		if p99.Total != "vector(1)" || !strings.HasPrefix(p99.Bad, "max((histogram_quantile(0.99") {
			t.Errorf("%s: bad %s total %s, want the quantile's threshold over vector(1)", name, p99.Bad, p99.Total)
		}
	}
}

func TestAlertConditionsMapToSlogensTiers(t *testing.T) {
	policy := `
  alertPolicies:
    - kind: AlertPolicy
      metadata: {name: burn}
      spec:
        alertWhenNoData: true
        conditions:
          - kind: AlertCondition
            metadata: {name: fast}
            spec:
              severity: pager
              condition: {kind: burnrate, op: gte, threshold: 14.4, lookbackWindow: 1h}
    - alertPolicyRef: slow
---
apiVersion: openslo/v1
kind: AlertPolicy
metadata: {name: slow}
spec:
  conditions: [{conditionRef: slow}]
---
apiVersion: openslo/v1
kind: AlertCondition
metadata: {name: slow}
spec:
  severity: chat
  condition: {kind: burnrate, op: gt, threshold: 2, lookbackWindow: 12h, alertAfter: 2h}
`
	data := strings.Replace(set, "  objectives: [{target: 0.999}]\n", "  objectives: [{target: 0.999}]"+policy, 1)
	s := convertOne(t, data)
	if s.Page != "pager" || s.Ticket != "chat" || len(s.For) != 1 || s.For[0] != (importer.Label{Key: "ticket_fast", Value: "120m"}) {
		t.Errorf("page %q ticket %q for %v, want pager, chat and ticket_fast 120m", s.Page, s.Ticket, s.For)
	}
	n := s.SLOs[0].Notes
	// Over 28d slogen's page burns at 13.44x, not 14.4x.
	if !has(n.Changed, "AlertCondition fast (set.yaml:36): burn rate over 1h above 14.4 becomes slogen's page (1h and 5m over 14.4x, or 6h and 30m over 6x, rates times 0.9333 for the period)") ||
		!has(n.Changed, "AlertCondition slow (set.yaml:49): burn rate over 12h above 2 becomes slogen's ticket_fast") ||
		!has(n.Exact, "alertWhenNoData as SLOMetricsAbsent") {
		t.Errorf("notes = %+v", n)
	}
}

func convertOne(t *testing.T, data string) importer.Service {
	t.Helper()
	return convert(t, data)[0]
}

func TestBadInputNamesFileLineAndField(t *testing.T) {
	const bad = `apiVersion: openslo/v1
kind: SLOs
metadata: {name: x}
spec: {}
---
apiVersion: openslo/v1
kind: SLO
metadata: {name: latency}
spec:
  service: api
  indicatorRef: nosuch
  budgetingMethod: Occurrences
  objectives: [{target: 0.99}]
---
apiVersion: openslo/v1
kind: SLO
metadata: {name: datadog}
spec:
  service: api
  indicator:
    metadata: {name: dd}
    spec:
      ratioMetric:
        good: {metricSource: {type: Datadog, spec: {query: "sum:hits{ok}"}}}
        total: {metricSource: {type: Datadog, spec: {query: "sum:hits{*}"}}}
  budgetingMethod: Occurrences
  objectives: [{target: 1.5}]
`
	objects, err := Read("bad.yaml", []byte(bad))
	if err == nil {
		_, err = Convert(objects)
	}
	if want := `bad.yaml:2: kind: "SLOs" is not an OpenSLO v1 kind`; !strings.Contains(errString(err), want) {
		t.Errorf("errors lack %q:\n%s", want, errString(err))
	}
	// Without the unknown kind, the references and values are checked.
	objects, _ = Read("bad.yaml", []byte(bad[strings.Index(bad, "---")+4:]))
	_, err = Convert(objects)
	for _, want := range []string{
		`bad.yaml:6: spec.indicatorRef: no SLI "nosuch" in the files imported`,
		`bad.yaml:19: spec.indicator.spec.ratioMetric.good.metricSource.type: a "Datadog" source: slogen reads Prometheus queries only`,
		`bad.yaml:22: spec.objectives[0].target: want a number in (0, 1)`,
	} {
		if !strings.Contains(errString(err), want) {
			t.Errorf("errors lack %q:\n%s", want, errString(err))
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func has(lines []string, part string) bool {
	for _, l := range lines {
		if strings.Contains(l, part) {
			return true
		}
	}
	return false
}

// A reference to a policy or a condition that no imported file holds is
// an error at the reference, on either level; the rest is still read.
func TestUnresolvedPolicyAndConditionRefsAreNamed(t *testing.T) {
	const set = `apiVersion: openslo/v1
kind: SLO
metadata: {name: availability}
spec:
  service: api
  indicator:
    metadata: {name: errors}
    spec:
      ratioMetric:
        good: {metricSource: {type: Prometheus, spec: {query: 'sum(rate(http_requests_total{code!~"5.."}[5m]))'}}}
        total: {metricSource: {type: Prometheus, spec: {query: 'sum(rate(http_requests_total[5m]))'}}}
  budgetingMethod: Occurrences
  objectives: [{target: 0.99}]
  alertPolicies:
    - alertPolicyRef: nosuch-policy
    - apiVersion: openslo/v1
      kind: AlertPolicy
      metadata: {name: inline}
      spec:
        conditions:
          - conditionRef: nosuch-condition
`
	objects, err := Read("refs.yaml", []byte(set))
	if err == nil {
		_, err = Convert(objects)
	}
	for _, want := range []string{
		`refs.yaml:15: spec.alertPolicies[0].alertPolicyRef: no AlertPolicy "nosuch-policy" in the files imported; add it, or inline the policy`,
		`refs.yaml:21: spec.alertPolicies[1].spec.conditions[0].conditionRef: no AlertCondition "nosuch-condition" in the files imported; add it, or inline the condition`,
	} {
		if !strings.Contains(errString(err), want) {
			t.Errorf("errors lack %q:\n%s", want, errString(err))
		}
	}
}
