package dashboard

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// withLogCounts adds to a runtime's fake the counts of fatal log lines
// that the Collector's prometheus exporter writes for the service, when
// it has a collector block: each line an alert of the service reads,
// logged by its pod svc-0 every other second, named and labelled as the
// exporter writes the count connector's metrics
// (TestAlertsReadTheNamesTheExporterWrites, internal/generate/otelcol).
// They are scraped from the runtime's fake for brevity.
func withLogCounts(svc model.Service, fake func(float64) string) func(float64) string {
	events := loggedEvents(svc)
	if len(events) == 0 {
		return fake
	}
	return func(t float64) string {
		var e exposition
		for _, event := range events {
			e.counter(gpualerts.LogCountMetric(event), fmt.Sprintf(`service_name=%q,k8s_namespace_name="inference",k8s_pod_name=%q`, svc.Name, fakePod(svc)), math.Floor(t/2))
		}
		return fake(t) + e.b.String()
	}
}

// loggedEvents are the events of the lines the service's alerts read.
func loggedEvents(svc model.Service) []string {
	var events []string
	for _, alert := range slices.Sorted(maps.Keys(gpualerts.LogEvents)) {
		if gpualerts.HasLogAlert(svc, alert) {
			events = append(events, gpualerts.LogEvents[alert])
		}
	}
	return events
}

// fakePod is the pod the fakes run in, as runtimeJob labels it.
func fakePod(svc model.Service) string { return svc.Name + "-0" }

// loggedLinesShowThePodsCounts: every fatal-line query of the errors
// panel shows the fake's pod, and only it, with its lines.
func loggedLinesShowThePodsCounts(t *testing.T, prom *testenv.Prometheus, d dashboard.Dashboard, values map[string]string, svc model.Service) {
	t.Helper()
	want := len(loggedEvents(svc))
	var drawn int
	for _, q := range grafanatest.Queries(d) {
		if !isLoggedLine(q.Legend) {
			continue
		}
		drawn++
		res, err := instantQuery(prom, grafanatest.Expand(q.Expr, values))
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Metric[loggedPod] != fakePod(svc) || res[0].Value[1] == "0" {
			t.Errorf("%s: panel %q shows %v for %q, want %s's lines", svc.Name, q.Panel, res, q.Legend, fakePod(svc))
		}
	}
	if drawn != want {
		t.Errorf("%s: the errors panel draws %d fatal lines, want one per alert on them, %d", svc.Name, drawn, want)
	}
}

func isLoggedLine(legend string) bool {
	return strings.HasPrefix(legend, "{{"+loggedPod+"}}: ")
}
