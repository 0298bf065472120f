package dashboard

import (
	"bytes"
	"math"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// nativeFormat is the protobuf exposition, the only one that carries
// native histograms: Prometheus 2.42 asks for it, and reads them, behind
// --enable-feature=native-histograms.
var nativeFormat = expfmt.NewFormat(expfmt.TypeProtoDelim)

// otelGenAINativeMetrics is otelGenAIMetrics with base-2 exponential
// histograms, as the Collector's prometheus exporter exposes them: native
// histograms of scale 3, in the protobuf format.
func otelGenAINativeMetrics(t *testing.T, p profile.Profile, served string) func(float64) string {
	return func(secs float64) string {
		ls := []*dto.LabelPair{label("gen_ai_operation_name", "chat"), label("gen_ai_provider_name", "openai"), label("gen_ai_request_model", served)}
		failed := append([]*dto.LabelPair{label("error_type", "500")}, ls...)
		families := []*dto.MetricFamily{
			nativeFamily(p.Latency.Name, nativeSeries(ls, 20*secs, 3), nativeSeries(failed, 0.05*secs, 0.5)),
			nativeFamily(p.TTFT.Name, nativeSeries(ls, 20*secs, 0.3)),
			nativeFamily(p.TPOT.Name, nativeSeries(ls, 20*secs, 0.04)),
		}
		var b bytes.Buffer
		enc := expfmt.NewEncoder(&b, nativeFormat)
		for _, f := range families {
			if err := enc.Encode(f); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
}

func ptr[T any](v T) *T { return &v }

func label(name, value string) *dto.LabelPair {
	return &dto.LabelPair{Name: ptr(name), Value: ptr(value)}
}

func nativeFamily(name string, ms ...*dto.Metric) *dto.MetricFamily {
	return &dto.MetricFamily{Name: ptr(name), Help: ptr("synthetic " + name), Type: dto.MetricType_HISTOGRAM.Enum(), Metric: ms}
}

// nativeSeries spreads count observations over scale-3 buckets by a
// log-logistic distribution around the median, as the classic fakes do;
// each bucket's count is its own share of count, so none ever falls.
func nativeSeries(ls []*dto.LabelPair, count, median float64) *dto.Metric {
	const scale, from, to = 3, -80, 56 // buckets 2^(-80/8) ≈ 1ms to 2^(56/8) = 128s
	cdf := func(i int) float64 { return 1 / (1 + math.Pow(median/math.Exp2(float64(i)/8), 3)) }
	var deltas []int64
	var total, sum, prev float64
	for i := from; i <= to; i++ {
		n := math.Floor(count * (cdf(i) - cdf(i-1)))
		deltas = append(deltas, int64(n-prev))
		prev, total, sum = n, total+n, sum+n*math.Exp2(float64(i)/8)
	}
	return &dto.Metric{Label: ls, Histogram: &dto.Histogram{
		SampleCount:   ptr(uint64(total)),
		SampleSum:     ptr(sum),
		Schema:        ptr[int32](scale),
		ZeroThreshold: ptr(0.0),
		ZeroCount:     ptr[uint64](0),
		PositiveSpan:  []*dto.BucketSpan{{Offset: ptr[int32](from), Length: ptr(uint32(to - from + 1))}},
		PositiveDelta: deltas,
	}}
}

// nativeHistograms reports whether the service reads native histograms
// (histograms: "native").
func nativeHistograms(svc model.Service) bool {
	m := svc.Metrics
	for _, h := range []model.Histogram{m.Latency, m.TTFT, m.ITL, m.TPOT, m.Queue} {
		if h.Native {
			return true
		}
	}
	return false
}
