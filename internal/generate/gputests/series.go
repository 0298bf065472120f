package gputests

import (
	"fmt"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
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
	gpu, err := gpuIdentityLabels(svc)
	for _, g := range []struct {
		field string
		of    quantity
	}{{fbUsed, memUsed}, {fbFree, memFree}, {gpuTemp, temperature}, {gpuUtil, utilisation}, {xidErrors, lastXID},
		{rowRemapFailure, remapFailure}, {powerViolation, throttleNs}, {thermalViolation, throttleNs}, {pcieReplays, pcieRetries},
		{eccDoubleBit, dbeErrors}, {remappedRows, remappedRowCount}, {nvlinkRecovery, nvlinkErrorCount}, {nvlinkCRC, nvlinkErrorCount}} {
		add(g.field, gpuLabels(gpu, g.field), err, reading{of: g.of})
	}
	add("up", upLabels(svc), nil, reading{of: exporterUp})
	for _, r := range runtimeReadings(svc) {
		ls, err := runtimeLabels(svc, r.metric)
		add(r.metric.String(), ls, err, r.reading)
	}
	out = append(out, logInputs(svc)...)
	// The availability SLO's counters, with its own labels: each grows by
	// Good per good and Bad per failed request.
	if slo, ok := svc.Availability(); ok {
		for _, in := range slo.SLI.Inputs {
			add("", nativeCount(in), nil, reading{of: requests, good: in.Good, bad: in.Bad, native: in.Native})
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("cannot synthesise test series: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

type runtimeReading struct {
	metric model.Selector
	reading
}

// runtimeReadings are the runtime's series: its gauges, and its counters
// of requests, errors, latency and OOM events.
func runtimeReadings(svc model.Service) []runtimeReading {
	m := svc.Metrics
	var rs []runtimeReading
	if !m.KVCache.IsZero() {
		rs = append(rs, runtimeReading{m.KVCache, reading{of: kvCache}})
	}
	if !m.Waiting.IsZero() {
		rs = append(rs, runtimeReading{m.Waiting, reading{of: queued}})
	}
	// Where the availability SLO counts the requests itself (TGI, SGLang,
	// an app whose errors are its latency histogram's count by code), its
	// series are those; another would count them twice.
	count := func(c model.Selector) {
		if !c.IsZero() && !fedBySLO(svc, c.Name) {
			rs = append(rs, runtimeReading{c, reading{of: completed}})
		}
	}
	count(m.Completed)
	if !m.OOM.IsZero() {
		rs = append(rs, runtimeReading{m.OOM, reading{of: oomCount}})
	}
	if h := svc.Metrics.MeanLatency(); h.Name != "" {
		count(model.Metric(h.Name + "_count"))
		rs = append(rs, runtimeReading{model.Metric(h.Name + "_sum"), reading{of: latencySum, unit: h.Unit}})
	}
	if p := m.Preemptions; strings.HasSuffix(p.Name, "_total") {
		rs = append(rs, runtimeReading{p, reading{of: preempted}})
	}
	if h := m.Queue; h.Name != "" && h.Name != m.MeanLatency().Name {
		count(model.Metric(h.Name + "_count"))
		rs = append(rs, runtimeReading{model.Metric(h.Name + "_sum"), reading{of: queueSum, unit: h.Unit}})
	}
	rs = append(rs, prefixCacheReadings(m)...)
	return append(rs, caseReadings(m)...)
}

// prefixCacheReadings are the prefix cache's token counters, or else its
// hit-ratio gauge.
func prefixCacheReadings(m model.Metrics) []runtimeReading {
	if hits, queries := m.PrefixCacheHits, m.PrefixCacheQueries; !hits.IsZero() && !queries.IsZero() {
		return []runtimeReading{{hits, reading{of: prefixHits}}, {queries, reading{of: prefixQueries}}}
	}
	if g := m.PrefixCacheHitRatio; !g.IsZero() {
		return []runtimeReading{{g, reading{of: hitRatio}}}
	}
	return nil
}

// fedBySLO reports whether the availability SLO's inputs include the
// metric; the runtime's own series of it would then count twice.
func fedBySLO(svc model.Service, name string) bool {
	slo, ok := svc.Availability()
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

// nativeCount is the series of a counter input, or, for the _count of a
// native histogram (model.Input.Native), the histogram's.
func nativeCount(in model.Input) labels.Labels {
	if !in.Native {
		return in.Series
	}
	name := strings.TrimSuffix(in.Series.Get(labels.MetricName), "_count")
	return labels.NewBuilder(in.Series).Set(labels.MetricName, name).Labels()
}
