package profile

import (
	"slices"
	"testing"
)

// The spec's version picks Dynamo's generation: 1.1.0 widened the request
// durations' buckets, and nothing else slogen reads changed.
func TestDynamoVersionPicksTheDurationBuckets(t *testing.T) {
	for version, last := range map[string]float64{"": 510, "1.1.0": 510, "1.2.3": 510, "1.0.0": 260, "1.0.2": 260} {
		p, err := For("dynamo", version)
		if err != nil {
			t.Fatalf("version %q: %v", version, err)
		}
		if got := p.Latency.Buckets[len(p.Latency.Buckets)-1]; got != last {
			t.Errorf("version %q: request durations up to %v s, want %v", version, got, last)
		}
		if !slices.Equal(p.TTFT.Buckets, dynamoTTFTBuckets) || !slices.Equal(p.ITL.Buckets, dynamoITLBuckets) {
			t.Errorf("version %q: TTFT or ITL buckets differ between generations", version)
		}
	}
	if _, err := For("dynamo", "0.9.0"); err == nil {
		t.Error("Dynamo 0.9.0 is below the floor, yet For accepts it")
	}
}

// The le values slogen matches are the ones the exporters write: Dynamo's
// Rust client as in a real frontend scrape ("0.0022", "1", "480"),
// TensorRT-LLM's prometheus_client with ".0" on integral bounds.
func TestBucketBoundsAreWrittenAsTheExportersWriteThem(t *testing.T) {
	tests := []struct {
		h    *Histogram
		want []string
	}{
		{dynamo.TTFT, []string{"0", "0.0022", "0.0047", "0.01", "0.022", "0.047", "0.1", "0.22", "0.47", "1", "2.2", "4.7", "10", "22", "48", "100", "220", "480"}},
		{dynamo.ITL, []string{"0", "0.0019", "0.0035", "0.0067", "0.013", "0.024", "0.045", "0.084", "0.16", "0.3", "0.56", "1.1", "2"}},
		{dynamo100.Latency, []string{"0", "1.9", "3.4", "6.3", "12", "22", "40", "75", "140", "260"}},
		{trtllm.Queue, []string{"0.3", "0.5", "0.8", "1.0", "1.5", "2.0", "2.5", "5.0", "10.0", "15.0", "20.0", "30.0", "40.0", "50.0", "60.0", "120.0", "240.0", "480.0", "960.0", "1920.0", "7680.0"}},
	}
	for _, tc := range tests {
		var got []string
		for _, b := range tc.h.Buckets {
			got = append(got, tc.h.Le(b))
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s writes le %v, want %v", tc.h.Name, got, tc.want)
		}
	}
}
