package profile

import "slices"

// vLLM V1 buckets (identical in ≈0.8, ≈0.10 and ≈0.12).
var (
	vllmLatencyBuckets = []float64{0.3, 0.5, 0.8, 1, 1.5, 2, 2.5, 5, 10, 15, 20, 30, 40, 50, 60, 120, 240, 480, 960, 1920, 7680}
	vllmTTFTBuckets    = []float64{0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80, 160, 640, 2560}
	vllmITLBuckets     = []float64{0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 20, 40, 80}
)

// SGLang buckets: e2e latency is the TTFT set plus four long ones.
var (
	sglangTTFTBuckets    = []float64{0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400}
	sglangLatencyBuckets = slices.Concat(sglangTTFTBuckets, []float64{600, 1200, 1800, 2400})
	sglangITLBuckets     = []float64{0.002, 0.004, 0.006, 0.008, 0.010, 0.015, 0.020, 0.025, 0.030, 0.035, 0.040, 0.060, 0.080, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8}
	sglangQueueBuckets   = []float64{0, 0.1, 0.2, 0.5, 1, 2, 3, 4, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000}
)

// PythonDefaultBuckets are prometheus_client's default histogram buckets,
// which a custom app gets unless it passes its own.
var PythonDefaultBuckets = []float64{0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10}

// tgiDurationBuckets rebuilds TGI's 35 geometric buckets the way its router
// does, by repeated multiplication, so the floats (and their le strings) are
// bit-for-bit the exporter's.
func tgiDurationBuckets() []float64 {
	b := make([]float64, 0, 35)
	v := 0.0001
	for range 35 {
		v *= 1.5
		b = append(b, v)
	}
	return b
}
