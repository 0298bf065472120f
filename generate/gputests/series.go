package gputests

import (
	"fmt"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

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

// input is one series the service's rules read, labelled as its exporter
// would label it, and what it reads of a scenario's world. metric names
// the DCGM field or runtime metric it is.
type input struct {
	metric  string
	series  string
	labels  labels.Labels
	reading reading
}

// inputs are every series the service's rules read. Making up their
// labels is the only part of a test series particular to one service.
func inputs(svc model.Service) ([]input, error) {
	var out []input
	var errs []string
	add := func(metric string, ls labels.Labels, err error, r reading) {
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		out = append(out, input{metric: metric, series: ls.String(), labels: ls, reading: r})
	}
	for _, g := range []struct {
		field string
		of    quantity
	}{{fbUsed, memUsed}, {fbFree, memFree}, {gpuTemp, temperature}, {gpuUtil, utilisation}, {xidErrors, lastXID}} {
		ls, err := gpuLabels(svc, g.field)
		add(g.field, ls, err, reading{of: g.of})
	}
	add("up", upLabels(svc), nil, reading{of: exporterUp})
	for _, r := range runtimeReadings(svc) {
		ls, err := runtimeLabels(svc, r.metric)
		add(r.metric, ls, err, r.reading)
	}
	// The availability SLO's counters, with its own labels: each grows by
	// Good per good and Bad per failed request.
	if slo, ok := availability(svc); ok {
		for _, in := range slo.SLI.Inputs {
			add("", in.Series, nil, reading{of: requests, good: in.Good, bad: in.Bad})
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("cannot synthesise test series: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

type runtimeReading struct {
	metric string
	reading
}

// runtimeReadings are the runtime's series: its gauges, and its counters
// of requests, errors, latency and OOM events.
func runtimeReadings(svc model.Service) []runtimeReading {
	m := svc.Metrics
	var rs []runtimeReading
	if m.KVCache != "" {
		rs = append(rs, runtimeReading{m.KVCache, reading{of: kvCache}})
	}
	if m.Waiting != "" {
		rs = append(rs, runtimeReading{m.Waiting, reading{of: queued}})
	}
	// Where the availability SLO counts completed requests itself (TGI,
	// SGLang), its series are the throughput; another would count twice.
	if m.Completed != "" && !fedBySLO(svc, m.Completed) {
		rs = append(rs, runtimeReading{m.Completed, reading{of: completed}})
	}
	if m.OOM != "" {
		rs = append(rs, runtimeReading{m.OOM, reading{of: oomCount}})
	}
	if h := latencyHistogram(svc); h.Name != "" {
		rs = append(rs,
			runtimeReading{h.Name + "_count", reading{of: completed}},
			runtimeReading{h.Name + "_sum", reading{of: latencySum, unit: h.Unit}})
	}
	return rs
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
	m, err := gpuIdentityLabels(svc)
	if err != nil {
		return labels.EmptyLabels(), err
	}
	m[labels.MetricName] = field
	return labels.FromMap(m), nil
}

// gpuIdentityLabels are the labels of the service's GPU: its mapping's,
// a GPU index and model.
func gpuIdentityLabels(svc model.Service) (map[string]string, error) {
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

// dedupe drops inputs labelled like one before them: a series that two
// readings name (a runtime counter the availability SLO reads too) is
// written once.
func dedupe(ins []input) []input {
	seen := map[string]bool{}
	var out []input
	for _, in := range ins {
		if !seen[in.series] {
			seen[in.series] = true
			out = append(out, in)
		}
	}
	return out
}
