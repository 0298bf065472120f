package overview

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// twoTeams are two services of two teams and runtimes: chat's TTFT SLO
// is split by model, search's availability SLO has a 7-day period.
const twoTeams = `package slo
services: chat: {
	team: "chat", runtime: "vllm"
	selector: {namespace: "chat", job: "chat"}
	slos: {
		availability: {objective: 99.9}
		ttft: {objective: 99, threshold: "1s", group_by: ["model_name"]}
	}
}
services: search: {
	team: "search", runtime: "sglang", model: "m"
	selector: {namespace: "search", job: "search"}
	slos: availability: {objective: 99.5, window: "7d"}
}
`

// twoTeamsRecordings are what the two services' rules record, and the
// alerts Prometheus holds, at one instant.
var twoTeamsRecordings = map[string]float64{
	`slogen:service_info{service="chat",team="chat",runtime="vllm",dashboard="slogen-vllm-1",namespace="chat",job="chat"}`:                       1,
	`slogen:service_info{service="search",team="search",runtime="sglang",dashboard="slogen-sglang-2",model="m",namespace="search",job="search"}`: 1,

	`slogen:slo_errors:rate30d{service="chat",slo="availability"}`:                      0.002,
	`slogen:slo_requests:rate30d{service="chat",slo="availability"}`:                    1,
	`slogen:slo_objective:ratio{service="chat",slo="availability"}`:                     0.999,
	`slogen:slo_error_budget_remaining:ratio{service="chat",slo="availability"}`:        -0.5,
	`slogen:slo_period_coverage:ratio{service="chat",slo="availability"}`:               0.5,
	`slogen:slo_errors:rate1h{service="chat",slo="availability"}`:                       0.004,
	`slogen:slo_requests:rate1h{service="chat",slo="availability"}`:                     2,
	`slogen:slo_errors:rate6h{service="chat",slo="availability"}`:                       0.003,
	`slogen:slo_requests:rate6h{service="chat",slo="availability"}`:                     2,
	`slogen:slo_errors:rate30d{service="chat",slo="ttft",model_name="a"}`:               0.001,
	`slogen:slo_requests:rate30d{service="chat",slo="ttft",model_name="a"}`:             1,
	`slogen:slo_errors:rate30d{service="chat",slo="ttft",model_name="b"}`:               0.02,
	`slogen:slo_requests:rate30d{service="chat",slo="ttft",model_name="b"}`:             1,
	`slogen:slo_objective:ratio{service="chat",slo="ttft"}`:                             0.99,
	`slogen:slo_error_budget_remaining:ratio{service="chat",slo="ttft",model_name="a"}`: 0.9,
	`slogen:slo_error_budget_remaining:ratio{service="chat",slo="ttft",model_name="b"}`: -1,
	`slogen:slo_period_coverage:ratio{service="chat",slo="ttft",model_name="a"}`:        1,
	`slogen:slo_period_coverage:ratio{service="chat",slo="ttft",model_name="b"}`:        1,
	`slogen:slo_errors:rate1h{service="chat",slo="ttft",model_name="a"}`:                0,
	`slogen:slo_requests:rate1h{service="chat",slo="ttft",model_name="a"}`:              1,
	`slogen:slo_errors:rate1h{service="chat",slo="ttft",model_name="b"}`:                0.05,
	`slogen:slo_requests:rate1h{service="chat",slo="ttft",model_name="b"}`:              1,

	// Prometheus writes 7d as 1w, in recording names too.
	`slogen:slo_errors:rate1w{service="search",slo="availability"}`:                0.001,
	`slogen:slo_requests:rate1w{service="search",slo="availability"}`:              1,
	`slogen:slo_objective:ratio{service="search",slo="availability"}`:              0.995,
	`slogen:slo_error_budget_remaining:ratio{service="search",slo="availability"}`: 0.8,
	`slogen:slo_period_coverage:ratio{service="search",slo="availability"}`:        1,
	`slogen:slo_errors:rate1h{service="search",slo="availability"}`:                0.0025,
	`slogen:slo_requests:rate1h{service="search",slo="availability"}`:              1,

	// One model of chat's TTFT burns; its SLO has more models than it
	// allows; its metrics were briefly absent (pending, not firing); a GPU
	// of chat is nearly full.
	`ALERTS{alertname="SLOErrorBudgetBurn",alertstate="firing",service="chat",slo="ttft",model_name="b",severity="critical"}`: 1,
	`ALERTS{alertname="SLOTooManyGroups",alertstate="firing",service="chat",slo="ttft",severity="warning"}`:                   1,
	`ALERTS{alertname="SLOMetricsAbsent",alertstate="pending",service="chat",slo="availability",severity="critical"}`:         1,
	`ALERTS{alertname="GPUMemoryHigh",alertstate="firing",service="chat",gpu="0",severity="warning"}`:                         1,
}

// row is one row of the table as Grafana shows it: its labels, and its
// value in each column.
type row struct {
	labels map[string]string
	values map[string]float64
}

// tableRows runs the table's queries and joins their series as Grafana's
// merge transformation joins a table's frames: by the values of the
// fields every frame has (a frame of a Prometheus table query has a
// field per label of any of its series), each query's value a column.
// It fails on a series that carries its metric name, which would be a
// column of its own. The rows come sorted as the panel sorts them.
func tableRows(t *testing.T, svcs []model.Service, data map[string]float64, vars map[string]string) []row {
	t.Helper()
	return tableRowsOf(t, svcs, store(t, data), vars)
}

// tableRowsOf is tableRows over what r holds.
func tableRowsOf(t *testing.T, svcs []model.Service, r *promtest.Replayed, vars map[string]string) []row {
	t.Helper()
	d := build(t, svcs)
	titles := map[string]string{}
	for i, c := range gather(svcs).columns() {
		titles[refID(i)] = c.title
	}
	var frames []map[string]float64 // by series labels, as text
	var keys map[string]bool
	for _, q := range panelQueries(t, d, "SLOs, least error budget left first") {
		frame, fields := map[string]float64{}, map[string]bool{}
		for _, s := range query(t, r, q.Expr, vars) {
			if s.Metric.Has(labels.MetricName) {
				t.Errorf("column %s keeps the metric name: %s", titles[q.RefID], s.Metric)
			}
			s.Metric.Range(func(l labels.Label) { fields[l.Name] = true })
			frame[s.Metric.String()] = s.F
		}
		if keys == nil {
			keys = fields
		}
		maps.DeleteFunc(keys, func(k string, _ bool) bool { return !fields[k] && len(frame) > 0 })
		frames = append(frames, frame)
	}
	merged := map[string]*row{}
	var order []string
	for i, frame := range frames {
		for text, v := range frame {
			ls, _ := labelsOf(text)
			key := ""
			for _, k := range slices.Sorted(maps.Keys(keys)) {
				key += k + "=" + ls[k] + ","
			}
			if merged[key] == nil {
				merged[key] = &row{labels: map[string]string{}, values: map[string]float64{}}
				order = append(order, key)
			}
			maps.Copy(merged[key].labels, ls)
			merged[key].values[titles[refID(i)]] = v
		}
	}
	var out []row
	for _, k := range order {
		out = append(out, *merged[k])
	}
	slices.SortStableFunc(out, func(a, b row) int {
		return cmpFloat(a.values[BudgetColumn], b.values[BudgetColumn])
	})
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// labelsOf reads a series' labels back from their text.
func labelsOf(text string) (map[string]string, error) {
	ls, err := parseLabels(text)
	return ls.Map(), err
}

// name is a row's SLO as the tests write it: service/slo[/group values].
func (r row) name() string {
	parts := []string{r.labels["service"], r.labels["slo"]}
	if m := r.labels["model_name"]; m != "" {
		parts = append(parts, m)
	}
	return strings.Join(parts, "/")
}

func names(rows []row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.name())
	}
	return out
}

// TestTableHasARowPerSLOWorstFirst: every SLO of both services, and each
// model of the split one, is one row with every column, the least budget
// left first, each column as its recordings and the alerts say.
func TestTableHasARowPerSLOWorstFirst(t *testing.T) {
	svcs := load(t, "two.cue", twoTeams)
	d := build(t, svcs)
	rows := tableRows(t, svcs, twoTeamsRecordings, grafanatest.AllPicked(d))
	if got, want := names(rows), []string{"chat/ttft/b", "chat/availability", "search/availability", "chat/ttft/a"}; !slices.Equal(got, want) {
		t.Fatalf("rows %v, want %v (least budget left first)", got, want)
	}
	nan := math.NaN() // no recording over 6h: the cell reads -
	want := map[string]map[string]float64{
		"chat/ttft/b": {SLIColumn: 0.98, ObjectiveColumn: 0.99, BudgetColumn: -1, CoverageColumn: 1, BurnColumn("1h"): 5, BurnColumn("6h"): nan,
			SLOAlertsColumn: 2, ServiceAlertsColumn: 1},
		"chat/availability": {SLIColumn: 0.998, ObjectiveColumn: 0.999, BudgetColumn: -0.5, CoverageColumn: 0.5, BurnColumn("1h"): 2, BurnColumn("6h"): 1.5,
			SLOAlertsColumn: 0, ServiceAlertsColumn: 1},
		"search/availability": {SLIColumn: 0.999, ObjectiveColumn: 0.995, BudgetColumn: 0.8, CoverageColumn: 1, BurnColumn("1h"): 0.5, BurnColumn("6h"): nan,
			SLOAlertsColumn: 0, ServiceAlertsColumn: 0},
		"chat/ttft/a": {SLIColumn: 0.999, ObjectiveColumn: 0.99, BudgetColumn: 0.9, CoverageColumn: 1, BurnColumn("1h"): 0, BurnColumn("6h"): nan,
			SLOAlertsColumn: 1, ServiceAlertsColumn: 1},
	}
	for _, r := range rows {
		if !maps.EqualFunc(r.values, want[r.name()], near) {
			t.Errorf("%s: %v, want %v", r.name(), r.values, want[r.name()])
		}
		for _, l := range []string{"team", "runtime"} {
			if r.labels[l] == "" {
				t.Errorf("%s: no %s column", r.name(), l)
			}
		}
	}
}

// TestTableLinksEachRowToItsServicesView: the hidden dashboard column
// holds the UID of the dashboard each row's service is drawn on, from its
// info, and the link on the service opens it with the service picked.
func TestTableLinksEachRowToItsServicesView(t *testing.T) {
	svcs := load(t, "two.cue", twoTeams)
	want := map[string]string{"chat": "slogen-vllm-1", "search": "slogen-sglang-2"}
	for _, r := range tableRows(t, svcs, twoTeamsRecordings, grafanatest.AllPicked(build(t, svcs))) {
		if got := r.labels[infoDashboard]; got != want[r.labels["service"]] {
			t.Errorf("%s links to %q, want %q", r.name(), got, want[r.labels["service"]])
		}
		if r.labels["service"] == "search" && r.labels[infoModel] != "m" {
			t.Errorf("%s shows model %q, want its info's, m", r.name(), r.labels[infoModel])
		}
	}
	link := serviceLink().URL
	if !strings.HasPrefix(link, "/d/${__data.fields.dashboard}?var-service=${__data.fields.service}") {
		t.Errorf("the link %s does not open the row's view with its service picked", link)
	}
}

// TestTeamAndRuntimeFiltersKeepOnlyTheirServices: with one team or one
// runtime picked, every column has that team's rows only.
func TestTeamAndRuntimeFiltersKeepOnlyTheirServices(t *testing.T) {
	svcs := load(t, "two.cue", twoTeams)
	for _, tc := range []struct {
		vars map[string]string
		want []string
	}{
		{map[string]string{"team": "search", "runtime": ".*"}, []string{"search/availability"}},
		{map[string]string{"team": "chat|search", "runtime": "vllm"}, []string{"chat/ttft/b", "chat/availability", "chat/ttft/a"}},
	} {
		t.Run(fmt.Sprint(tc.vars), func(t *testing.T) {
			rows := tableRows(t, svcs, twoTeamsRecordings, tc.vars)
			if got := names(rows); !slices.Equal(got, tc.want) {
				t.Errorf("rows %v, want %v", got, tc.want)
			}
		})
	}
}
