package overview

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/table"
	"github.com/grafana/grafana-foundation-sdk/go/units"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// dayAgo ends the name of a diagnosis recording's twin over the same hour
// a day earlier, as internal/plan/gpualerts records it.
const dayAgo = "_1d_ago"

// quadrant is one of the four signals the diagnosis alerts read, against
// the same hour yesterday, and the factor at which they call it changed.
type quadrant struct {
	title, record, about string
	// worse is the factor past which the diagnosis calls the signal
	// changed; below tells whether worse lies below it.
	worse float64
	below bool
}

var quadrants = []quadrant{
	{"Mean latency", gpualerts.LatencyMean, "up above", gpualerts.LatencyUp, false},
	{"Throughput", gpualerts.Throughput, "down below", gpualerts.ThroughputLow, true},
	{"Error ratio", gpualerts.ErrorRatio, "up above", gpualerts.ErrorsUp, false},
	{"GPU memory held", gpualerts.MemoryUsed, "up above", gpualerts.MemoryUp, false},
}

// diagnosisPanels show, for the services with the least budget left, what
// their diagnosis recordings and alerts say: the alerts firing (the
// diagnosis verdicts among them), their fullest GPU's memory, their GPUs'
// utilisation, their KV cache and queue, and the four signals against
// the same hour yesterday.
func (f fleet) diagnosisPanels() (top, middle, signals []cog.Builder[dashboard.Panel]) {
	top = []cog.Builder[dashboard.Panel]{worstAlerts(), gpuMemory(), f.gpuUtilisation()}
	for _, q := range quadrants {
		signals = append(signals, versusYesterday(q))
	}
	return top, f.servingPanels(), signals
}

// worstAlerts lists the firing alerts of the worst services, with their
// labels: which diagnosis says what, which GPU, pod or SLO.
func worstAlerts() cog.Builder[dashboard.Panel] {
	hidden := map[string]bool{"Time": true, "Value": true, "__name__": true, "alertstate": true}
	return table.NewPanelBuilder().
		Title("Firing alerts of these services").
		Description(fmt.Sprintf("Every firing alert of the %d services with the least error budget left: the diagnosis "+
			"(%s, %s, %s), the KV cache, queue and GPU utilisation alerts (%s, %s, %s), and their SLOs' and GPUs' alerts.",
			worstCount, gpualerts.Saturated, gpualerts.InputErrors, gpualerts.MemoryLeakSuspect,
			gpualerts.KVCacheHigh, gpualerts.QueueBacklog, gpualerts.UtilizationHigh)).
		Datasource(datasource).
		Unit("none").
		NoValue("nothing firing").
		WithTarget(tableTarget(0, ofWorst(firing()))).
		WithTransformation(dashboard.DataTransformerConfig{Id: "organize", Options: map[string]any{
			"excludeByName": hidden,
			"indexByName":   map[string]int{"service": 0, "alertname": 1, "severity": 2},
		}}).
		SortBy([]cog.Builder[common.TableSortByFieldState]{common.NewTableSortByFieldStateBuilder().DisplayName("service")}).
		Footer(common.NewTableFooterOptionsBuilder().Show(false).Reducer([]string{})).
		CellHeight(common.TableCellHeightSm)
}

// gpuMemory is each worst service's fullest GPU, as GPUMemoryHigh reads
// it.
func gpuMemory() cog.Builder[dashboard.Panel] {
	fullest := pql.Max(pql.Metric(gpualerts.MemoryUsedRatio), pql.By("service"))
	return timeseriesPanel("GPU memory in use, fullest GPU",
		fmt.Sprintf("The share of usable memory in use on each service's fullest GPU, as %s reads it.", gpualerts.MemoryHigh),
		units.PercentUnit, ofWorst(fullest)).Max(1)
}

// gpuUtilisation is each worst service's GPUs' mean utilisation, as
// GPUUtilizationHigh reads it. dcgm-exporter's series do not name the
// service; its GPU memory recording does, by the labels that name a GPU
// under its DCGM mapping, so the utilisation of each GPU is read through
// it, once per mapping in use. A GPU that two exporters report counts
// once.
func (f fleet) gpuUtilisation() cog.Builder[dashboard.Panel] {
	var terms []pql.Expr
	for _, id := range f.gpus {
		claimed := pql.Group(pql.Metric(gpualerts.MemoryUsedRatio, pql.Neq(id.owner, "")), pql.By(append([]string{"service"}, id.labels...)...))
		busy := pql.Max(pql.Metric(dcgm.GPUUtil), pql.By(id.labels...))
		terms = append(terms, pql.Avg(pql.Mul(claimed, busy, pql.On(id.labels...).GroupLeft()), pql.By("service")))
	}
	return timeseriesPanel("GPU utilisation, mean of the service's GPUs",
		fmt.Sprintf("How busy each service's GPUs are on average (%s), as %s reads it: near 100%% there is no headroom for more traffic.",
			dcgm.GPUUtil, gpualerts.UtilizationHigh),
		"percent", ofWorst(fold(pql.Or, terms))).Max(100)
}

// versusYesterday plots a signal over the last hour as a multiple of the
// same hour yesterday, with the diagnosis's factor dashed.
func versusYesterday(q quadrant) cog.Builder[dashboard.Panel] {
	ratio := pql.Div(pql.Metric(q.record), pql.Metric(q.record+dayAgo))
	base, past := "green", "red"
	if q.below {
		base, past = past, base
	}
	about := fmt.Sprintf("%s over the last hour as a multiple of the same hour yesterday (%s). "+
		"The diagnosis alerts call it changed %s %s× (dashed). No line until Prometheus holds a day of the service's series.",
		q.title, q.record, q.about, num(q.worse))
	return withLine(timeseriesPanel(q.title+" against yesterday", about, "suffix:×", ofWorst(ratio)), base, step{q.worse, past})
}

func num(f float64) string { return fmt.Sprintf("%g", f) }

// worst are the picked services with the least error budget left in any
// of their SLOs.
func worst() pql.Expr {
	least := pql.Min(onlyPicked(budget()), pql.By("service"))
	return &parser.AggregateExpr{Op: parser.BOTTOMK, Param: pql.Num(worstCount), Expr: least}
}

// ofWorst keeps e's series of the worst services.
func ofWorst(e pql.Expr) pql.Expr { return pql.And(e, worst(), pql.On("service")) }
