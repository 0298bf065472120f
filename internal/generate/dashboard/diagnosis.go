package dashboard

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/prometheus"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// verdict is one answer of the Diagnosis now panel: the value its query
// returns, and the text and colour Grafana shows for it.
type verdict struct {
	value       int
	text, color string
	alert       string // the diagnosis alert that gives it, if one does
}

// The verdicts. The three diagnosis alerts' conditions exclude each
// other (latency up; latency normal with errors up; latency normal with
// errors not up), so at most one fires; the order only makes the query's
// answer certain.
var (
	saturated  = verdict{3, "saturated", "red", gpualerts.Saturated}
	inputs     = verdict{2, "inputs or dependency", "orange", gpualerts.InputErrors}
	memoryLeak = verdict{1, "memory leak", "purple", gpualerts.MemoryLeakSuspect}
	healthy    = verdict{0, "healthy", "green", ""}
	noBaseline = verdict{-1, "no baseline yet", "blue", ""}
	diagnoses  = []verdict{saturated, inputs, memoryLeak}
)

// diagnosisNow says in a word what the diagnosis alerts say: the verdict
// of the one firing for the service, else healthy, or no baseline yet
// while the same hour yesterday is missing from Prometheus. Read from
// ALERTS, it agrees with the alerts by construction, `for` included. nil
// when the service gets none of the diagnosis alerts.
func diagnosisNow(s scope) cog.Builder[dashboard.Panel] {
	var terms []pql.Expr
	var shown []verdict
	for _, v := range diagnoses {
		if s.hasAlert(v.alert) {
			terms = append(terms, pql.Mul(pql.Num(float64(v.value)), pql.Max(firing(s.svc, v.alert))))
			shown = append(shown, v)
		}
	}
	if len(terms) == 0 {
		return nil
	}
	// The baselines may be NaN (a day-old hour without traffic) but are
	// there: count them.
	terms = append(terms, pql.Mul(pql.Num(float64(healthy.value)), pql.Count(fold(pql.And, baselines(s.alerts)))),
		vector(float64(noBaseline.value)))
	return statPanel("Diagnosis now", diagnosisDescription(shown), "none",
		plot(fold(pql.Or, terms), "diagnosis")).
		TextMode(common.BigValueTextModeValue).
		Decimals(0).
		Thresholds(thresholds("text")).
		Mappings([]dashboard.ValueMapping{{ValueMap: verdictMap(append(shown, healthy, noBaseline))}})
}

// fold joins operands left to right with one operator, on one line
// (pql.Chain would lay them out over lines).
func fold(op func(l, r pql.Expr, m ...pql.Match) pql.Expr, operands []pql.Expr) pql.Expr {
	e := operands[0]
	for _, o := range operands[1:] {
		e = op(e, o)
	}
	return e
}

func verdictMap(vs []verdict) *dashboard.ValueMap {
	m := dashboard.NewValueMap()
	for i, v := range vs {
		m.Options[strconv.Itoa(v.value)] = dashboard.ValueMappingResult{Text: cog.ToPtr(v.text), Color: cog.ToPtr(v.color), Index: cog.ToPtr(int32(i))}
	}
	return m
}

// diagnosisDescription is how to read the four quadrants together, and
// what drives the verdict.
func diagnosisDescription(shown []verdict) string {
	var alerts []string
	for _, v := range shown {
		alerts = append(alerts, fmt.Sprintf("%s (%s)", v.alert, v.text))
	}
	return "Read the four vital signs together: latency, throughput, errors, VRAM. " +
		"Latency up with throughput down is saturation: check the queue, KV cache and GPU utilisation; scale out or cap long prompts. " +
		"Errors up with latency normal is input validation or a dependency: read the error classes. " +
		"VRAM up with all else normal is a leak: the projection and Time until VRAM full say how long is left. " +
		"This panel shows which of these the diagnosis alerts see now, each comparing the last hour with the same hour yesterday: " +
		strings.Join(alerts, ", ") + " while it fires, else healthy. " +
		"Until Prometheus holds a day of the service's series it shows no baseline yet: no diagnosis alert can fire then."
}

// firingAlerts lists the service's firing alerts, SLO, GPU and serving
// alike, with their labels: Grafana's alert list panel shows only
// Grafana-managed alerts, and these are Prometheus's.
func firingAlerts(s scope) cog.Builder[dashboard.Panel] {
	hidden := map[string]bool{"Time": true, "Value": true, "__name__": true, "alertstate": true, "service": true}
	return table.NewPanelBuilder().
		Title("Firing alerts").
		Description("Every alert of the service that is firing now (ALERTS in Prometheus), with its labels: which SLO, GPU or pod it is about.").
		Datasource(datasource).
		Unit("none").
		NoValue("nothing firing").
		WithTarget(target(0, plot(firing(s.svc, ""), "")).Instant().Format(prometheus.PromQueryFormatTable)).
		WithTransformation(dashboard.DataTransformerConfig{Id: "organize", Options: map[string]any{
			"excludeByName": hidden,
			"indexByName":   map[string]int{"alertname": 0, "severity": 1},
		}}).
		SortBy([]cog.Builder[common.TableSortByFieldState]{common.NewTableSortByFieldStateBuilder().DisplayName("severity")}).
		Footer(common.NewTableFooterOptionsBuilder().Show(false).Reducer([]string{})). // the SDK's default has no reducer, which Grafana's schema requires
		CellHeight(common.TableCellHeightSm)
}

// firing selects the service's firing alerts, of one name or all.
func firing(svc model.Service, alertname string) *parser.VectorSelector {
	var ms []*labels.Matcher
	if alertname != "" {
		ms = append(ms, pql.Eq(labels.AlertName, alertname))
	}
	ms = append(ms, pql.Eq("alertstate", "firing"), pql.Eq("service", svc.Name))
	return model.Metric("ALERTS").With(ms...)
}
