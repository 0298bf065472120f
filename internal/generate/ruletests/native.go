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

// nativeSeries writes each native histogram among the inputs from its
// parts, over the phases: its count, and its fast observations from its
// bucket part (all of them when it has none). Inputs that are no part of
// one are left to the caller, in order.
func nativeSeries(svc model.Service, ins []model.Input, values func(model.Input) []testfile.Run) (out []testfile.Series, classic []model.Input) {
	var order []string
	parts := map[string][]model.Input{}
	for _, in := range ins {
		if !in.Native {
			classic = append(classic, in)
			continue
		}
		k := written(in)
		if parts[k] == nil {
			order = append(order, k)
		}
		parts[k] = append(parts[k], in)
	}
	for _, k := range order {
		ps := parts[k]
		count, fast := ps[0], ps[0]
		for _, p := range ps {
			if isBucket(p) {
				fast = p
			} else {
				count = p
			}
		}
		shape := shapeOf(svc, metricOf(count))
		out = append(out, testfile.Series{Series: k, Values: shape.Values(values(count), values(fast))})
	}
	return out, classic
}

// nativeStairs writes, as stairs does a counter, each native histogram
// among the inputs not seen yet, from the inputs' parts of it; it returns
// the inputs that are no part of one.
func nativeStairs(svc model.Service, ins []model.Input, length, every int, seen map[string]bool) (out []testfile.Series, classic []model.Input) {
	var fresh []model.Input
	for _, in := range ins {
		switch {
		case !in.Native:
			classic = append(classic, in)
		case !seen[written(in)]:
			fresh = append(fresh, in)
		}
	}
	var steps []model.Input // one part of each histogram, to mark it seen
	for _, in := range fresh {
		if !slices.ContainsFunc(steps, func(p model.Input) bool { return written(p) == written(in) }) {
			steps = append(steps, in)
		}
	}
	for _, in := range steps {
		count, fast := in, in
		for _, p := range fresh {
			switch {
			case written(p) != written(in):
			case isBucket(p):
				fast = p
			default:
				count = p
			}
		}
		seen[written(in)] = true
		out = append(out, testfile.Series{Series: written(in), Values: shapeOf(svc, metricOf(in)).Samples(stairs(count, length, every), stairs(fast, length, every))})
	}
	return out, classic
}
