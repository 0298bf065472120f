package dashboard

import (
	"slices"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// dcgmDefaultCounters are dcgm-exporter's default-counters.csv
// (4.5.3-4.8.2) gauges and counters, from docs/metrics.md.
var dcgmDefaultCounters = []string{
	"DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_MEM_CLOCK", "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_GPU_TEMP",
	"DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
	"DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL", "DCGM_FI_DEV_ENC_UTIL", "DCGM_FI_DEV_DEC_UTIL",
	"DCGM_FI_DEV_XID_ERRORS", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_RESERVED",
	"DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL", "DCGM_FI_DEV_VGPU_LICENSE_STATUS",
	"DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", "DCGM_FI_DEV_ROW_REMAP_FAILURE",
	"DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "DCGM_FI_PROF_DRAM_ACTIVE",
	"DCGM_FI_PROF_PCIE_TX_BYTES", "DCGM_FI_PROF_PCIE_RX_BYTES",
}

// provided lists the metrics a service's queries may read: what its
// runtime profile names, dcgm-exporter's default counters, the series
// slogen's rules and GPU rules record for it, and the ALERTS Prometheus
// writes for their alerts, and the span metrics and fatal-line counts of
// the Collector of a service with a collector block.
func provided(svc model.Service) []string {
	m := svc.Metrics
	names := append(slices.Clone(dcgmDefaultCounters), "ALERTS", "up")
	for _, h := range []string{m.Latency.Name, m.TTFT.Name, m.ITL.Name, m.TPOT.Name, m.Queue.Name, m.PromptLength, m.QueueTime} {
		if h != "" {
			names = append(names, h+"_bucket", h+"_count", h+"_sum")
		}
	}
	for _, h := range []model.Histogram{m.Latency, m.TTFT, m.ITL, m.TPOT, m.Queue} {
		if h.Native { // one series, named without a suffix
			names = append(names, h.Name)
		}
	}
	s := m.Serving
	for _, sel := range []model.Selector{s.Running, s.Waiting, s.KVCache, s.PromptTokens, s.GenerationTokens, s.Completed, s.Preemptions,
		s.PrefixCacheHits, s.PrefixCacheQueries, s.PrefixCacheHitRatio, s.Aborts, s.Failures, s.BatchSize, s.BatchMax, s.OOM, s.GPUMemory, s.GPUMemoryReserved, s.ReadyEndpoints, s.PromptSeconds, s.GenerationSeconds} {
		if !sel.IsZero() {
			names = append(names, sel.Name)
		}
	}
	if (scope{svc: svc}).hasSpans() { // the Collector's span metrics
		names = append(names, plan.SpanDuration+"_bucket")
	}
	for _, event := range loggedEvents(svc) {
		names = append(names, gpualerts.LogCountMetric(event))
	}
	if p, err := profile.For(svc.Runtime, svc.Version); err == nil && p.Availability != nil {
		for _, sel := range slices.Concat(p.Availability.Total, p.Availability.Failed) {
			names = append(names, sel.Name)
		}
	}
	for _, g := range append(rules.Build(svc), gpualerts.Build(gpualerts.NewPlan(svc))...) {
		for _, r := range g.Rules {
			if r.Record != "" {
				names = append(names, r.Record)
			}
		}
	}
	return names
}

// everyQuery is each panel query and variable selector of a dashboard
// with the given variable values.
func everyQuery(d dashboard.Dashboard, values map[string]string) map[string]string {
	qs := map[string]string{}
	for _, q := range grafanatest.Queries(d) {
		qs["panel "+q.Panel+" query "+q.RefID] = grafanatest.Expand(q.Expr, values)
	}
	for _, v := range VariableQueries(d) {
		qs["variable "+v.Name] = grafanatest.Expand(v.Selector, values)
	}
	return qs
}

// someSelected are values as Grafana writes a multi-value selection.
var someSelected = map[string]string{
	"__rate_interval": "2m", "pod": `(chat-llama-0|chat-llama-1)`, "instance": `10\\.0\\.0\\.7:8000`, "host": "gpu-node-2", "gpu": "(0|1)",
}

func TestEveryQueryParsesAsPrometheus242Would(t *testing.T) {
	p := promcompat.Parser()
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		if err := checkQueries(d); err != nil {
			t.Errorf("%s: %v", svc.Name, err)
		}
		for what, q := range everyQuery(d, someSelected) {
			if _, err := p.ParseExpr(q); err != nil {
				t.Errorf("%s, %s, with some values selected: %v\n%s", svc.Name, what, err, q)
			}
		}
	}
}

func TestQueriesReadOnlyProvidedMetrics(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		allowed := provided(svc)
		for what, q := range everyQuery(d, AllSelected(d, "1m")) {
			for _, name := range selectedMetrics(t, q) {
				if !slices.Contains(allowed, name) {
					t.Errorf("%s, %s reads %s, which neither the %s profile, dcgm-exporter's defaults nor slogen's recordings provide",
						svc.Name, what, name, svc.Runtime)
				}
			}
		}
	}
}

func selectedMetrics(t *testing.T, q string) []string {
	t.Helper()
	e, err := promcompat.Parser().ParseExpr(q)
	if err != nil {
		t.Fatalf("%v: %s", err, q)
	}
	var names []string
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			names = append(names, vs.Name)
		}
		return nil
	})
	return names
}

func TestExpand(t *testing.T) {
	vals := map[string]string{"pod": "a", "pods": "b", "__rate_interval": "1m"}
	got := grafanatest.Expand(`x{p=~"$pod",q=~"$pods",r=~"${pod}"}[$__rate_interval]`, vals)
	if want := `x{p=~"a",q=~"b",r=~"a"}[1m]`; got != want {
		t.Errorf("Expand = %s, want %s", got, want)
	}
}

// TestEveryFilterIsDefined catches a query filtering on a variable the
// dashboard does not define: Grafana would leave $name in the regex, and
// it would match nothing.
func TestEveryFilterIsDefined(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		for what, q := range everyQuery(d, AllSelected(d, "1m")) {
			if strings.Contains(q, "$") {
				t.Errorf("%s, %s: an undefined variable is left: %s", svc.Name, what, q)
			}
		}
	}
}
