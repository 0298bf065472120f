package dashboard

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// The panels agree with the alerts, each as an SRE found it could not.

// TestLatencyPanelsDrawEachSLOsThreshold: for every latency, TTFT, ITL,
// TPOT and queue SLO, and every bound of a goodput SLO, a latency panel
// draws the percentile the SLO is about on the bound's histogram (per
// value of its group_by labels for a split SLO), and the threshold as a
// line named after the SLO.
func TestLatencyPanelsDrawEachSLOsThreshold(t *testing.T) {
	kinds := map[model.Kind]bool{}
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		for _, slo := range svc.SLOs {
			for _, b := range bounds(slo, model.LatencyKinds) {
				h := histogramOfKind(svc.Metrics, b.Kind)
				if h.Name == "" {
					continue
				}
				kinds[slo.Kind] = true
				by := strings.Join(append([]string{"le"}, slo.GroupBy...), ", ") // a split SLO's percentile per value
				quantile := fmt.Sprintf("histogram_quantile(%s, sum by (%s) (rate(%s_bucket{", num(ratio(slo.Objective)), by, h.Name)
				if h.Native { // its buckets are inside its one series
					quantile = fmt.Sprintf("histogram_quantile(%s, sum(rate(%s{", num(ratio(slo.Objective)), h.Name)
					if len(slo.GroupBy) > 0 {
						quantile = fmt.Sprintf("histogram_quantile(%s, sum by (%s) (rate(%s{", num(ratio(slo.Objective)), strings.Join(slo.GroupBy, ", "), h.Name)
					}
				}
				line := fmt.Sprintf("vector(%s)", num(b.Threshold.Seconds()))
				var drawn, limited bool
				for _, q := range latencyQueries(d) {
					drawn = drawn || strings.HasPrefix(q.expr, quantile)
					limited = limited || q.expr == line && strings.HasPrefix(q.legend, slo.Name+" SLO")
				}
				if !drawn || !limited {
					t.Errorf("%s: SLO %s: its percentile drawn %v, its threshold %s drawn %v", svc.Name, slo.Name, drawn, line, limited)
				}
			}
		}
	}
	for _, k := range []model.Kind{model.Latency, model.TTFT, model.ITL, model.TPOT, model.Queue, model.Goodput} {
		if !kinds[k] {
			t.Errorf("no test service has a %s SLO", k)
		}
	}
}

func histogramOfKind(m model.Metrics, k model.Kind) model.Histogram {
	return map[model.Kind]model.Histogram{model.Latency: m.Latency, model.TTFT: m.TTFT, model.ITL: m.ITL, model.TPOT: m.TPOT, model.Queue: m.Queue}[k]
}

// latencyQueries are the queries of the latency panels, with legends.
func latencyQueries(d dashboard.Dashboard) []query {
	var qs []query
	for _, p := range grafanatest.Panels(d) {
		if !strings.HasSuffix(grafanatest.Deref(p.Title), "latency") {
			continue
		}
		for _, tg := range p.Targets {
			pq, _ := grafanatest.PromQuery(tg)
			qs = append(qs, query{pq.Expr, grafanatest.Deref(pq.LegendFormat)})
		}
	}
	return qs
}

// TestErrorsPanelDrawsWhatTheAvailabilitySLOCounts replays the SLO rules
// over traffic with client errors, which vLLM's availability SLO does not
// count (5xx only), and failures of two classes, which TGI's counts whole.
// Every series of the errors panel is at most what the SLO counts, the
// SLO's own line is exactly that, a split by class adds up to it, and the
// dashed line is the SLO's budget.
func TestErrorsPanelDrawsWhatTheAvailabilitySLOCounts(t *testing.T) {
	vllm := `handler="/v1/chat/completions",job="vllm-chat",method="POST",namespace="inference"`
	tgi := `job="tgi-summarize",namespace="inference"`
	for name, traffic := range map[string]map[string]float64{
		"chat-llama": {
			`http_requests_total{` + vllm + `,status="2xx"}`: 20,
			`http_requests_total{` + vllm + `,status="4xx"}`: 5, // a fifth of all: far over the 0.5 % budget, were it drawn against it
			`http_requests_total{` + vllm + `,status="5xx"}`: 0.05,
		},
		"summarize-mistral": {
			`tgi_request_count{` + tgi + `}`:                    10,
			`tgi_request_failure{` + tgi + `,err="validation"}`: 0.08,
			`tgi_request_failure{` + tgi + `,err="generation"}`: 0.02,
		},
	} {
		t.Run(name, func(t *testing.T) {
			svc := service(t, name)
			slo, _ := svc.Availability()
			r, at := replay(t, rules.Build(svc), counters(t, traffic))
			counted := only(t, r, fmt.Sprintf("(%s) / (%s)", slo.SLI.Errors, slo.SLI.Requests), at)
			d, _ := build(t, name)
			var classes float64
			for _, q := range panelQueries(d, "Errors the availability SLO counts") {
				if isLoggedLine(q.legend) { // lines counted, not requests: TestLoggedLinesAreTheAlertsQueries
					continue
				}
				vs := values(t, r, grafanatest.Expand(q.expr, AllSelected(d, genfile.Duration(model.BaseWindow))), at)
				switch {
				case strings.Contains(q.legend, "budget"):
					if want := ratio(slo.ErrorBudget()); !slices.Equal(vs, []float64{want}) {
						t.Errorf("%s: %v, want the budget %v", q.legend, vs, want)
					}
					continue
				case strings.Contains(q.legend, "errors it counts"):
					if len(vs) != 1 || !close(vs[0], counted) {
						t.Errorf("%s: %v, want what the SLO counts, %v", q.legend, vs, counted)
					}
				}
				for _, v := range vs {
					if v > counted*(1+1e-9) {
						t.Errorf("%s draws %v, more than the SLO counts (%v)", q.legend, v, counted)
					}
					if !strings.Contains(q.legend, "errors it counts") {
						classes += v
					}
				}
			}
			if classes != 0 && !close(classes, counted) {
				t.Errorf("the classes add up to %v, not to what the SLO counts, %v", classes, counted)
			}
		})
	}
}

// TestBurnPanelCountsAnHAPairOnce: the burn-rate panel of a service that
// spans clusters reads the page's own ratio, so it counts each cluster's
// HA pair, whose two Prometheus servers record every series twice, once.
// Cluster a's pair fails 1 %, cluster b 3 %, at the same traffic: 2 %,
// four times the 0.5 % budget, where adding up every copy read 5/3 %.
func TestBurnPanelCountsAnHAPairOnce(t *testing.T) {
	svc := service(t, "chat-clusters")
	slo, _ := svc.Availability()
	series := func(metric, cluster, replica string) string {
		return fmt.Sprintf(`%s{%s=%q,prometheus_replica=%q,service=%q,slo=%q}`, metric, svc.Global.Label, cluster, replica, svc.Name, slo.Name)
	}
	errs, reqs := rules.Errors(burnWindow), rules.Requests(burnWindow)
	r, at := replay(t, nil, gauges(t, map[string]float64{
		series(errs, "a", "0"): 0.01, series(reqs, "a", "0"): 1,
		series(errs, "a", "1"): 0.01, series(reqs, "a", "1"): 1,
		series(errs, "b", "0"): 0.03, series(reqs, "b", "0"): 1,
	}))
	d, _ := build(t, svc.Name)
	found := false
	for _, q := range panelQueries(d, "Burn rate ("+genfile.Duration(burnWindow)+")") {
		if q.legend == slo.Name {
			found = true
			if got := only(t, r, grafanatest.Expand(q.expr, AllSelected(d, "1m")), at); !close(got, 4) {
				t.Errorf("%s burns %v×, want 4×", slo.Name, got)
			}
		}
	}
	if !found {
		t.Fatalf("no burn-rate line of %s", slo.Name)
	}
}

// TestSLOThroughputCountsAnHAPairOnce: for an app whose only request
// counter is its availability SLO's, the throughput panel reads the SLO's
// 5m recording; across clusters, an HA pair's two copies count once, as
// the burn alerts count them.
func TestSLOThroughputCountsAnHAPairOnce(t *testing.T) {
	svc := service(t, "chat-clusters")
	slo, _ := svc.Availability()
	reqs := rules.Requests(model.BaseWindow)
	series := func(cluster, replica string) string {
		return fmt.Sprintf(`%s{%s=%q,prometheus_replica=%q,service=%q,slo=%q}`, reqs, svc.Global.Label, cluster, replica, svc.Name, slo.Name)
	}
	r, at := replay(t, nil, gauges(t, map[string]float64{series("a", "0"): 2, series("a", "1"): 2, series("b", "0"): 3}))
	p, err := sloThroughput(svc).Build()
	if err != nil {
		t.Fatal(err)
	}
	d := dashboard.Dashboard{Panels: []dashboard.PanelOrRowPanel{{Panel: &p}}}
	for _, q := range panelQueries(d, grafanatest.Deref(p.Title)) {
		if got := only(t, r, q.expr, at); !close(got, 5) {
			t.Errorf("%s reads %v requests/s, want 5: cluster a's pair counted once", q.expr, got)
		}
	}
}

// TestVRAMPanelIsTheAlertsFormula: the GPU read 0.905 on the
// panel and 0.908 in GPUMemoryHigh, the panel counting FB_RESERVED as
// memory. Both now come from gpualerts.MemoryRatio: the panel's query is
// the alert's recorded expression once its filters are taken out, and
// replayed over that GPU it reads what the recording reads.
func TestVRAMPanelIsTheAlertsFormula(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		got := withoutFilters(t, panelQueries(d, "VRAM used per GPU, and projected 4h ahead")[0].expr)
		if want := recordingExpr(t, svc, gpualerts.MemoryUsedRatio); got != want {
			t.Errorf("%s: the VRAM panel reads\n%s\nGPUMemoryHigh reads\n%s", svc.Name, got, want)
		}
	}

	svc := service(t, "chat-llama")
	gpu := fmt.Sprintf(`{gpu="0",job=%q,%s=%q,%s="chat-llama-0"}`, svc.DCGM.Job, svc.DCGM.NamespaceLabel(), svc.DCGM.Namespace, svc.DCGM.PodLabel())
	r, at := replay(t, gpualerts.Build(gpualerts.NewPlan(svc)), gauges(t, map[string]float64{
		dcgm.FBUsed + gpu: 72640, dcgm.FBFree + gpu: 7360, "DCGM_FI_DEV_FB_RESERVED" + gpu: 265, // 0.905 of used + free + reserved
	}))
	alert := only(t, r, gpualerts.MemoryUsedRatio, at)
	d, _ := build(t, svc.Name)
	panel := only(t, r, grafanatest.Expand(panelQueries(d, "VRAM used per GPU, and projected 4h ahead")[0].expr, AllSelected(d, "1m")), at)
	if alert != 0.908 || panel != alert {
		t.Errorf("GPUMemoryHigh reads %v and the panel %v; want 0.908 for both", alert, panel)
	}
}

// withoutFilters prints a panel query without the matchers its variables
// fill in.
func withoutFilters(t *testing.T, expr string) string {
	t.Helper()
	e, err := promcompat.Parser().ParseExpr(expr)
	if err != nil {
		t.Fatal(err)
	}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			vs.LabelMatchers = slices.DeleteFunc(vs.LabelMatchers, func(m *labels.Matcher) bool { return strings.HasPrefix(m.Value, "$") })
		}
		return nil
	})
	return e.String()
}

func recordingExpr(t *testing.T, svc model.Service, record string) string {
	t.Helper()
	for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
		for _, r := range g.Rules {
			if r.Record == record {
				e, err := promcompat.Parser().ParseExpr(pql.Print(r.Expr))
				if err != nil {
					t.Fatal(err)
				}
				return e.String()
			}
		}
	}
	t.Fatalf("%s: no recording %s", svc.Name, record)
	return ""
}

// TestEnginePanelDrawsThePreemptionAlertsLimit: a preemption counter is
// drawn per minute over InferencePreemptions' window, against the spec's
// limit; SGLang's gauge of requests retracted now is drawn as such, with
// no per-minute limit it cannot be compared with.
func TestEnginePanelDrawsThePreemptionAlertsLimit(t *testing.T) {
	svc := service(t, "chat-llama")
	svc.Thresholds.PreemptionsPerMinute = 3
	d, err := Build(plan.New(svc))
	if err != nil {
		t.Fatal(err)
	}
	qs := panelQueries(d, "Engine: preemptions and prefix-cache hit ratio")
	w := "[" + genfile.Duration(gpualerts.EngineWindow) + "])) * 60"
	if len(qs) != 4 || !strings.HasSuffix(qs[0].expr, w) || qs[3].expr != "vector(3)" || !strings.HasPrefix(qs[3].legend, gpualerts.Preemptions) {
		t.Errorf("vLLM's engine panel: %v", qs)
	}
	d, _ = build(t, "qwen-sglang")
	qs = panelQueries(d, "Engine: requests retracted now and prefix-cache hit ratio")
	if len(qs) != 3 || qs[0].legend != "requests retracted now" || strings.Contains(qs[0].expr, "rate(") || strings.HasPrefix(qs[1].expr, "vector(") {
		t.Errorf("SGLang's engine panel: %v", qs)
	}
}

// TestPreemptionPanelIsTheAlertsQuery: where a service has
// InferencePreemptions, the engine panel's preemption line is the query
// the alert compares with its limit once its replica filter is taken
// out: the model matched by name as the alert matches it, not the
// runtime panels' "this model or none".
func TestPreemptionPanelIsTheAlertsQuery(t *testing.T) {
	checked := 0
	for _, svc := range services(t, specFiles(t)...) {
		var alert string
		for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
			for _, r := range g.Rules {
				if r.Alert == gpualerts.Preemptions {
					alert = pql.Print(pql.Copy(r.Expr).(*parser.BinaryExpr).LHS)
				}
			}
		}
		if alert == "" {
			continue
		}
		d, _ := build(t, svc.Name)
		for _, q := range panelQueries(d, "Engine: preemptions and prefix-cache hit ratio") {
			if q.legend == "preemptions/min" {
				checked++
				if got := withoutFilters(t, q.expr); got != alert {
					t.Errorf("%s: the panel draws\n%s\nInferencePreemptions reads\n%s", svc.Name, got, alert)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no example service draws InferencePreemptions' line")
	}
}

// TestEnginePanelDrawsWhatPrefixCacheColdStartReads: the hit ratio drawn
// is the alert's own recording, and the dashed line the very expression
// the alert compares it with, so neither can drift from the other.
func TestEnginePanelDrawsWhatPrefixCacheColdStartReads(t *testing.T) {
	for _, name := range []string{"chat-llama", "qwen-sglang"} {
		svc := service(t, name)
		svc.Thresholds.PrefixCacheHitVsYesterday = 0.3
		d, err := Build(plan.New(svc))
		if err != nil {
			t.Fatal(err)
		}
		ratioTree, coldTree := gpualerts.ColdCacheLines(svc)
		ratio, cold := pql.Print(ratioTree), pql.Print(coldTree)
		var alert string
		for _, g := range gpualerts.Build(gpualerts.NewPlan(svc)) {
			for _, r := range g.Rules {
				if r.Alert == gpualerts.PrefixCacheCold {
					alert = pql.Print(r.Expr)
				}
			}
		}
		if !strings.Contains(alert, ratio+" < "+cold) || !strings.Contains(cold, "0.3 * ") {
			t.Errorf("%s: the alert %q does not compare %s with %s", name, alert, ratio, cold)
		}
		var drawn []string
		for _, p := range grafanatest.Panels(d) {
			if strings.Contains(grafanatest.Deref(p.Title), "prefix-cache hit ratio") {
				for _, q := range panelQueries(d, grafanatest.Deref(p.Title)) {
					drawn = append(drawn, q.expr)
				}
			}
		}
		if !slices.Contains(drawn, ratio) || !slices.Contains(drawn, cold) {
			t.Errorf("%s: the engine panel draws %v, not %s and %s", name, drawn, ratio, cold)
		}
	}
}

// panelQueries are the queries and legends of the panel with that title.
func panelQueries(d dashboard.Dashboard, title string) []query {
	var qs []query
	for _, p := range grafanatest.Panels(d) {
		if grafanatest.Deref(p.Title) == title {
			for _, tg := range p.Targets {
				pq, _ := grafanatest.PromQuery(tg)
				qs = append(qs, query{pq.Expr, grafanatest.Deref(pq.LegendFormat)})
			}
		}
	}
	return qs
}

// replayLength is how long the replayed history is: past the longest
// window the panels read outside the SLO period (the trend's hour).
const replayLength = 70 * time.Minute

// replay evaluates the rule groups, every 30 seconds, over the inputs,
// and returns the replay and its last evaluation's time.
func replay(t *testing.T, groups []rules.Group, inputs []promtest.Input) (*promtest.Replayed, time.Time) {
	t.Helper()
	for i := range groups {
		groups[i].Interval = ""
	}
	b, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Unix(0, 0).UTC()
	end := start.Add(replayLength)
	r, err := promtest.Replay{Every: 30 * time.Second}.Run(context.Background(), b, inputs, start, end)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r, end
}

// counters are series growing at their rates per second, sampled every
// 15 seconds; gauges stay at their values.
func counters(t *testing.T, rates map[string]float64) []promtest.Input {
	return series(t, rates, func(v, secs float64) float64 { return v * secs })
}

func gauges(t *testing.T, values map[string]float64) []promtest.Input {
	return series(t, values, func(v, _ float64) float64 { return v })
}

func series(t *testing.T, values map[string]float64, at func(v, secs float64) float64) []promtest.Input {
	t.Helper()
	var out []promtest.Input
	for s, v := range values {
		ls, err := promcompat.Parser().ParseMetric(s)
		if err != nil {
			t.Fatal(err)
		}
		in := promtest.Input{Labels: ls}
		for secs := 0.0; secs <= replayLength.Seconds(); secs += 15 {
			in.Samples = append(in.Samples, promql.FPoint{T: int64(secs * 1000), F: at(v, secs)})
		}
		out = append(out, in)
	}
	return out
}

// only is the value of a query that must return one series.
func only(t *testing.T, r *promtest.Replayed, expr string, at time.Time) float64 {
	t.Helper()
	vs := values(t, r, expr, at)
	if len(vs) != 1 {
		t.Fatalf("%s: %v, want one value", expr, vs)
	}
	return vs[0]
}

// values are the values of a query that must return data.
func values(t *testing.T, r *promtest.Replayed, expr string, at time.Time) []float64 {
	t.Helper()
	v, err := r.Query(context.Background(), expr, at)
	if err != nil || len(v) == 0 {
		t.Fatalf("%s: %v (%v)", expr, v, err)
	}
	var out []float64
	for _, s := range v {
		out = append(out, s.F)
	}
	return out
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
