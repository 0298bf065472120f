package dashboard

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// exposition writes Prometheus's text format (0.0.4) the way the
// runtimes' client libraries do.
type exposition struct {
	b strings.Builder
}

func (e *exposition) family(name, typ, help string) {
	fmt.Fprintf(&e.b, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, typ)
}

func (e *exposition) sample(name, labels string, v float64) {
	if labels != "" {
		labels = "{" + labels + "}"
	}
	fmt.Fprintf(&e.b, "%s%s %s\n", name, labels, strconv.FormatFloat(v, 'g', -1, 64))
}

func (e *exposition) gauge(name, labels string, v float64) {
	e.family(name, "gauge", "synthetic "+name)
	e.sample(name, labels, v)
}

func (e *exposition) counter(name, labels string, v float64) {
	e.family(name, "counter", "synthetic "+name)
	e.sample(name, labels, v)
}

// dist is a synthetic distribution of observations: count so far, the
// median, and the le strings of the exporter's buckets with their bounds.
type dist struct {
	count, median float64
	les           []string
	bounds        []float64
}

// histogram writes cumulative buckets from a log-logistic distribution
// around the median: every bucket grows as observations arrive, as real
// ones do.
func (e *exposition) histogram(name, labels string, d dist) {
	e.family(name, "histogram", "synthetic "+name)
	e.histogramSeries(name, labels, d)
}

// histogramSeries writes one labelled series of a histogram family.
func (e *exposition) histogramSeries(name, labels string, d dist) {
	sep := ""
	if labels != "" {
		sep = ","
	}
	for i, le := range d.les {
		cdf := 1 / (1 + math.Pow(d.median/d.bounds[i], 3))
		e.sample(name+"_bucket", labels+sep+`le="`+le+`"`, math.Floor(d.count*cdf))
	}
	e.sample(name+"_bucket", labels+sep+`le="+Inf"`, math.Floor(d.count))
	e.sample(name+"_count", labels, math.Floor(d.count))
	e.sample(name+"_sum", labels, math.Floor(d.count)*d.median)
}

// pythonLe writes a bound as prometheus_client does on Prometheus 2:
// integral values get ".0".
func pythonLe(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// goLe writes a bound as the Go and Rust clients do.
func goLe(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func les(bounds []float64, format func(float64) string) []string {
	out := make([]string, len(bounds))
	for i, b := range bounds {
		out[i] = format(b)
	}
	return out
}

// oneTwoFive are vLLM's token-count buckets up to max.
func oneTwoFive(max float64) []float64 {
	var out []float64
	for m := 1.0; m <= max; m *= 10 {
		for _, f := range []float64{1, 2, 5} {
			if f*m <= max {
				out = append(out, f*m)
			}
		}
	}
	return out
}

// wave is a gauge oscillating around mid by amp, with a period of about
// 20 seconds, so that consecutive scrapes differ.
func wave(t, mid, amp float64) float64 { return mid + amp*math.Sin(t/3) }
