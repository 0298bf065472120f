package profile

import (
	"testing"
	"time"
)

func TestLeMatcherMatchesGoAndPythonRenderings(t *testing.T) {
	cases := []struct {
		bound   float64
		matches []string
		misses  []string
	}{
		{1, []string{"1", "1.0"}, []string{"10", "1.5", "11.0", "0.1"}},
		{2.5, []string{"2.5"}, []string{"2.50", "25"}},
		{2560, []string{"2560", "2560.0"}, []string{"256", "2560.5"}},
		{0.001, []string{"0.001"}, []string{"0.0010", "0x001"}},
	}
	for _, c := range cases {
		m := LeMatcher(c.bound)
		for _, s := range c.matches {
			if !m.Matches(s) {
				t.Errorf("%s does not match le=%q", m, s)
			}
		}
		for _, s := range c.misses {
			if m.Matches(s) {
				t.Errorf("%s matches le=%q", m, s)
			}
		}
	}
}

func TestThresholdMustBeABucketBoundary(t *testing.T) {
	h := vllm.Latency
	if b, ok, _, _ := h.Boundary(2500 * time.Millisecond); !ok || b != 2.5 {
		t.Errorf("2.5s: got %v %v, want the 2.5 bucket", b, ok)
	}
	if _, ok, below, above := h.Boundary(3 * time.Second); ok || below != 2.5 || above != 5 {
		t.Errorf("3s: ok=%v nearest %v and %v, want 2.5 and 5", ok, below, above)
	}
	// Triton's histogram is in milliseconds.
	if b, ok, _, _ := triton.TTFT.Boundary(500 * time.Millisecond); !ok || b != 500 {
		t.Errorf("triton 500ms: got %v %v", b, ok)
	}
}

func TestTGIBucketsAreTheRouters(t *testing.T) {
	b := tgiDurationBuckets()
	if len(b) != 35 || GoLe(b[0]) != "0.00015000000000000001" || GoLe(b[24]) != "2.5251168294042348" {
		t.Errorf("TGI buckets: %d, first %s, 25th %s", len(b), GoLe(b[0]), GoLe(b[24]))
	}
	if _, ok, _, _ := tgi.Latency.Boundary(2525116829 * time.Nanosecond); !ok {
		t.Error("2.525116829s should match TGI's 25th bucket")
	}
}

func TestPythonExportersWriteIntegralBoundsWithDotZero(t *testing.T) {
	if got := vllm.TTFT.Le(1); got != "1.0" {
		t.Errorf("vLLM le for 1s = %q, want 1.0", got)
	}
	if got := triton.TTFT.Le(500); got != "500" {
		t.Errorf("Triton le for 500ms = %q, want 500", got)
	}
}
