package gputests

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/model"
)

// DCGM fields the alerts read, as dcgm-exporter names them. They are
// spelt here again, not taken from the rules, so a misspelt field in a
// rule fails its test.
const (
	fbUsed    = "DCGM_FI_DEV_FB_USED"
	fbFree    = "DCGM_FI_DEV_FB_FREE"
	gpuTemp   = "DCGM_FI_DEV_GPU_TEMP"
	gpuUtil   = "DCGM_FI_DEV_GPU_UTIL"
	xidErrors = "DCGM_FI_DEV_XID_ERRORS"
)

// Synthetic series labels beyond the ones the rules match on.
const (
	testInstance = "10.0.0.1:8000"
	testGPU      = "0"
)

// testSeries builds every series the service's rules read, sampled from w.
func testSeries(svc model.Service, w world) ([]ruletests.Series, error) {
	var out []ruletests.Series
	var errs []string
	add := func(ls labels.Labels, err error, values []float64) {
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		out = append(out, ruletests.Series{Series: ls.String(), Values: encode(values)})
	}
	total := gpuMemory(svc)
	for _, g := range []struct {
		field string
		read  func(state) float64
	}{
		{fbUsed, func(s state) float64 { return gone(s.memUsed, s.gpuGone) }},
		{fbFree, func(s state) float64 { return gone(total-s.memUsed, s.gpuGone) }},
		{gpuTemp, func(s state) float64 { return gone(s.temp, s.gpuGone) }},
		{gpuUtil, func(s state) float64 { return gone(s.util, s.gpuGone) }},
		{xidErrors, func(s state) float64 { return gone(s.xid, s.gpuGone) }},
	} {
		ls, err := gpuLabels(svc, g.field)
		add(ls, err, w.gauge(g.read))
	}
	add(upLabels(svc), nil, w.gauge(func(s state) float64 { return s.exporterUp }))
	avail := availabilitySeries(svc, w)
	for _, r := range runtimeReadings(svc, w) {
		ls, err := runtimeLabels(svc, r.metric)
		add(ls, err, r.values)
	}
	out = append(out, avail...)
	if len(errs) > 0 {
		return nil, fmt.Errorf("cannot synthesise test series: %s", strings.Join(errs, "; "))
	}
	return dedupe(out), nil
}

type reading struct {
	metric string
	values []float64
}

// runtimeReadings are the runtime's series: its gauges, and its counters
// of requests, errors, latency and OOM events.
func runtimeReadings(svc model.Service, w world) []reading {
	m := svc.Metrics
	var rs []reading
	if m.KVCache != "" {
		rs = append(rs, reading{m.KVCache, w.gauge(func(s state) float64 { return s.kv })})
	}
	if m.Waiting != "" {
		rs = append(rs, reading{m.Waiting, w.gauge(func(s state) float64 { return s.waiting })})
	}
	// Where the availability SLO counts completed requests itself (TGI,
	// SGLang), its series are the throughput; another would count twice.
	if m.Completed != "" && !fedBySLO(svc, m.Completed) {
		rs = append(rs, reading{m.Completed, w.counter(func(s state) float64 { return s.reqPerMin })})
	}
	if m.OOM != "" {
		rs = append(rs, reading{m.OOM, w.gauge(func(s state) float64 { return s.ooms })})
	}
	if h := latencyHistogram(svc); h.Name != "" {
		rs = append(rs,
			reading{h.Name + "_count", w.counter(func(s state) float64 { return s.reqPerMin })},
			reading{h.Name + "_sum", w.counter(func(s state) float64 { return s.reqPerMin * s.latency / h.Unit })})
	}
	return rs
}

// availabilitySeries are the counters behind the availability SLO, with
// its own labels: each grows by Good per good and Bad per failed request.
func availabilitySeries(svc model.Service, w world) []ruletests.Series {
	slo, ok := availability(svc)
	if !ok {
		return nil
	}
	var out []ruletests.Series
	for _, in := range slo.SLI.Inputs {
		vs := w.counter(func(s state) float64 { return s.reqPerMin * (in.Good*(1-s.errRatio) + in.Bad*s.errRatio) })
		out = append(out, ruletests.Series{Series: in.Series.String(), Values: encode(vs)})
	}
	return out
}

func latencyHistogram(svc model.Service) model.Histogram {
	if svc.Metrics.Latency.Name != "" {
		return svc.Metrics.Latency
	}
	return svc.Metrics.TTFT
}

// gpuMemory is the memory of the service's GPU model, or an H100's.
func gpuMemory(svc model.Service) float64 {
	if svc.GPU.MemoryMiB > 0 {
		return float64(svc.GPU.MemoryMiB)
	}
	return 81559
}

// gpuLabels label one GPU of the service as dcgm-exporter would after
// the scrape: matching the service's mapping, with a GPU index and model.
func gpuLabels(svc model.Service, field string) (labels.Labels, error) {
	base, err := gpuIdentityLabels(svc)
	if err != nil {
		return labels.EmptyLabels(), err
	}
	m := maps.Clone(base)
	m[labels.MetricName] = field
	return labels.FromMap(m), nil
}

// gpuIdentities caches gpuIdentityLabels by what it reads: making up
// values for the mapping's regexps is most of a test series' cost.
var gpuIdentities sync.Map // string → map[string]string

func gpuIdentityLabels(svc model.Service) (map[string]string, error) {
	key := fmt.Sprintf("%+v\x00%s", svc.DCGM, svc.GPU.Product)
	if m, ok := gpuIdentities.Load(key); ok {
		return m.(map[string]string), nil
	}
	m := map[string]string{"gpu": testGPU, "UUID": "GPU-00000000-0000-0000-0000-000000000000", "modelName": "NVIDIA H100 80GB HBM3"}
	if svc.GPU.Product != "" {
		m["modelName"] = svc.GPU.Product
	}
	for _, mt := range svc.DCGM.Matchers() {
		v, err := example(mt)
		if err != nil {
			return nil, err
		}
		m[mt.Name] = v
	}
	gpuIdentities.Store(key, m)
	return m, nil
}

func upLabels(svc model.Service) labels.Labels {
	instance := "10.0.0.2:9400"
	if ts := svc.Scrape.DCGM.Targets; svc.Scrape.Mode == model.ScrapeStatic && len(ts) > 0 {
		instance = ts[0]
	}
	return labels.FromStrings(labels.MetricName, "up", "job", svc.DCGM.Job, "instance", instance)
}

// runtimeLabels label a runtime series as the runtime exports it: the
// metric's own matchers (a custom app's oom may be
// inference_errors_total{type="oom"}), the spec's selector and the served
// model on runtimes that label their metrics with it.
func runtimeLabels(svc model.Service, metric string) (labels.Labels, error) {
	e, err := parser.NewParser(parser.Options{}).ParseExpr(metric)
	if err != nil {
		return labels.EmptyLabels(), fmt.Errorf("%q is not a metric selector: %w", metric, err)
	}
	vs, ok := e.(*parser.VectorSelector)
	if !ok || vs.Name == "" {
		return labels.EmptyLabels(), fmt.Errorf("%q is not a metric name with optional label matchers", metric)
	}
	m := map[string]string{"instance": testInstance}
	for _, mt := range vs.LabelMatchers {
		v, err := example(mt)
		if err != nil {
			return labels.EmptyLabels(), err
		}
		m[mt.Name] = v
	}
	for _, l := range svc.Selector {
		m[l.Name] = l.Value
	}
	if svc.Metrics.ModelLabel != "" && svc.Model != "" {
		m[svc.Metrics.ModelLabel] = svc.Model
	}
	return labels.FromMap(m), nil
}

// identity is the part of a series' labels that an alert keeps.
func identity(ls labels.Labels, names []string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		if v := ls.Get(n); v != "" {
			out[n] = v
		}
	}
	return out
}

// availability is the service's first availability SLO.
func availability(svc model.Service) (model.SLO, bool) {
	for _, s := range svc.SLOs {
		if s.Kind == model.Availability {
			return s, true
		}
	}
	return model.SLO{}, false
}

// fedBySLO reports whether the availability SLO's inputs include the
// metric; the runtime's own series of it would then count twice.
func fedBySLO(svc model.Service, name string) bool {
	slo, ok := availability(svc)
	if !ok {
		return false
	}
	for _, in := range slo.SLI.Inputs {
		if in.Series.Get(labels.MetricName) == name {
			return true
		}
	}
	return false
}

func dedupe(ss []ruletests.Series) []ruletests.Series {
	seen := map[string]bool{}
	var out []ruletests.Series
	for _, s := range ss {
		if !seen[s.Series] {
			seen[s.Series] = true
			out = append(out, s)
		}
	}
	return out
}

// encode writes samples in promtool's notation, runs of a constant step
// as "a+bxn" (n+1 samples); NaN is a missing sample, and trailing ones
// end the series.
func encode(vs []float64) string {
	for len(vs) > 0 && math.IsNaN(vs[len(vs)-1]) {
		vs = vs[:len(vs)-1]
	}
	var segs []string
	for i := 0; i < len(vs); {
		if math.IsNaN(vs[i]) {
			n := 1
			for i+n < len(vs) && math.IsNaN(vs[i+n]) {
				n++
			}
			segs = append(segs, gap(n))
			i += n
			continue
		}
		n, step := run(vs, i)
		segs = append(segs, segment(vs[i], step, n))
		i += n + 1
	}
	return strings.Join(segs, " ")
}

// run is how many samples after i continue vs[i] by a constant step.
func run(vs []float64, i int) (n int, step float64) {
	if i+1 >= len(vs) || math.IsNaN(vs[i+1]) {
		return 0, 0
	}
	step = round(vs[i+1] - vs[i])
	for j := i + 1; j < len(vs) && !math.IsNaN(vs[j]); j++ {
		want := vs[i] + float64(j-i)*step
		if math.Abs(vs[j]-want) > 1e-6*math.Max(1, math.Abs(want)) {
			break
		}
		n = j - i
	}
	return n, step
}

func segment(start, step float64, n int) string {
	switch {
	case n == 0:
		return fmtNum(start)
	case step < 0:
		return fmtNum(start) + "-" + fmtNum(-step) + "x" + strconv.Itoa(n)
	default:
		return fmtNum(start) + "+" + fmtNum(step) + "x" + strconv.Itoa(n)
	}
}

// gap is n missing samples: "_", or "_xn".
func gap(n int) string {
	if n == 1 {
		return "_"
	}
	return "_x" + strconv.Itoa(n)
}

func round(f float64) float64 { return math.Round(f*1e9) / 1e9 }

func fmtNum(f float64) string { return strconv.FormatFloat(round(f), 'f', -1, 64) }
