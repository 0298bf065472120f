package ruletests

import (
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// A native histogram's SLIs give their test inputs as the classic series
// they stand for (model.Input.Native): its _count, and its _bucket at the
// SLO's threshold. The world shares and times them as it does classic
// series, but a test writes the histogram they are parts of, once, and
// from one SLO's parts, so that its count and its buckets stay one
// histogram's: the world keys a part by its histogram (written).

// histogramOf is the native histogram a part stands for: its name without
// the suffix, its labels without le.
func histogramOf(in model.Input) labels.Labels {
	b := labels.NewBuilder(in.Series)
	b.Del("le")
	name := in.Series.Get(labels.MetricName)
	name = strings.TrimSuffix(strings.TrimSuffix(name, "_count"), "_bucket")
	return b.Set(labels.MetricName, name).Labels()
}

// written is the series a test writes for an input: its own, or its
// native histogram.
func written(in model.Input) string {
	if in.Native {
		return histogramOf(in).String()
	}
	return in.Series.String()
}

// metricOf is the metric an input's series is of.
func metricOf(in model.Input) string {
	if in.Native {
		return histogramOf(in).Get(labels.MetricName)
	}
	return in.Series.Get(labels.MetricName)
}

// isBucket tells a part at a bound from a count.
func isBucket(in model.Input) bool { return in.Series.Has("le") }

// partLike is the SLO's part of the same native histogram as in, and of
// the same kind (count, or bucket at any bound); ok is false when the SLO
// has none, as an availability SLO has no bucket.
func partLike(slo model.SLO, in model.Input) (model.Input, bool) {
	k := written(in)
	i := slices.IndexFunc(slo.SLI.Inputs, func(p model.Input) bool { return written(p) == k && isBucket(p) == isBucket(in) })
	if i < 0 {
		return model.Input{}, false
	}
	return slo.SLI.Inputs[i], true
}

// shapeOf places a histogram's fast and slow buckets around every
// threshold any SLO of the service asks of it, so that each reads the
// fast observations as good and the slow ones as bad.
func shapeOf(svc model.Service, name string) testfile.Histogram {
	var bounds []float64
	for _, slo := range svc.SLOs {
		for _, p := range slo.SLI.Measured() {
			for _, in := range p.Inputs {
				if in.Native && isBucket(in) && metricOf(in) == name {
					if b, err := strconv.ParseFloat(in.Series.Get("le"), 64); err == nil {
						bounds = append(bounds, b)
					}
				}
			}
		}
	}
	if len(bounds) == 0 {
		bounds = []float64{1} // read for its count alone
	}
	return testfile.Split(bounds)
}

// histogram is one native histogram among some inputs: its series, and
// the parts it is written from, its count and its fast observations (the
// bucket part's, or the count's when it has none).
type histogram struct {
	series      string
	count, fast model.Input
}

// histograms gathers the inputs' native histograms, in the order they
// first appear, and returns the inputs that are no part of one.
func histograms(ins []model.Input) (out []histogram, classic []model.Input) {
	for _, in := range ins {
		if !in.Native {
			classic = append(classic, in)
			continue
		}
		k := written(in)
		i := slices.IndexFunc(out, func(h histogram) bool { return h.series == k })
		if i < 0 {
			out, i = append(out, histogram{series: k, count: in, fast: in}), len(out)
		}
		if isBucket(in) {
			out[i].fast = in
		} else {
			out[i].count = in
		}
	}
	return out, classic
}

// nativeSeries writes each native histogram among the inputs from its
// parts' runs; it returns the inputs that are no part of one, in order.
func nativeSeries(svc model.Service, ins []model.Input, runs func(model.Input) []testfile.Run) ([]testfile.Series, []model.Input) {
	hs, classic := histograms(ins)
	out := make([]testfile.Series, 0, len(hs))
	for _, h := range hs {
		shape := shapeOf(svc, metricOf(h.count))
		out = append(out, testfile.Series{Series: h.series, Values: shape.Values(runs(h.count), runs(h.fast))})
	}
	return out, classic
}

// nativeStairs writes, as stairs does a counter, each native histogram
// among the inputs not seen yet; it returns the inputs that are no part
// of one.
func nativeStairs(svc model.Service, ins []model.Input, length, every int, seen map[string]bool) ([]testfile.Series, []model.Input) {
	hs, classic := histograms(ins)
	var out []testfile.Series
	for _, h := range hs {
		if seen[h.series] {
			continue
		}
		seen[h.series] = true
		shape := shapeOf(svc, metricOf(h.count))
		out = append(out, testfile.Series{Series: h.series, Values: shape.Samples(stairs(h.count, length, every), stairs(h.fast, length, every))})
	}
	return out, classic
}
