package otelcol_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/generate/otelcol"
	"github.com/slogen-dev/slogen/internal/model"
)

func TestOnlyServicesThatAskGetAFragment(t *testing.T) {
	asks := &model.Collector{RequestsPerSecond: 1, SampleFloor: 0.01, DecisionWait: 30 * time.Second}
	for name, svcs := range map[string][]model.Service{
		"no service asks":               {{Name: "a", Runtime: "vllm"}},
		"a runtime slogen knows naught": {{Name: "a", Runtime: "custom", Collector: asks}},
	} {
		data, err := otelcol.Build(svcs)
		if err != nil || data != nil {
			t.Errorf("%s: got a fragment (%v):\n%s", name, err, data)
		}
	}
}

// The processor holds 2 × the longest decision_wait × the summed peak
// rate: services a (10/s, 30s) and b (20/s, 45s) share it.
func TestNumTracesIsTwiceTheTracesHeldAtThePeak(t *testing.T) {
	data := string(build(t, `services: {
		a: {runtime: "vllm", slos: ttft: {objective: 99, threshold: "1s"}, collector: requests_per_second: 10}
		b: {runtime: "sglang", slos: ttft: {objective: 99, threshold: "2s"}, collector: {requests_per_second: 20, decision_wait: "45s"}}
	}`))
	for _, want := range []string{"decision_wait: 45s", "num_traces: 2700", "expected_new_traces_per_sec: 30"} {
		if !strings.Contains(data, want) {
			t.Errorf("want %q in\n%s", want, data)
		}
	}
}

func TestTheFloorIsWrittenAsThePercentageGiven(t *testing.T) {
	data := string(build(t, `services: a: {runtime: "vllm", slos: ttft: {objective: 99, threshold: "1s"}, collector: {requests_per_second: 1, sample_floor: 0.07}}`))
	if !strings.Contains(data, "sampling_percentage: 7\n") {
		t.Errorf("want sampling_percentage: 7 in\n%s", data)
	}
}

func TestDecisionWaitIsWrittenWithoutZeroUnits(t *testing.T) {
	for wait, want := range map[string]string{"30s": "30s", "60s": "1m", "90s": "1m30s", "1h": "1h", "3610s": "1h0m10s"} {
		data := string(build(t, `services: a: {runtime: "vllm", slos: ttft: {objective: 99, threshold: "1s"}, collector: {requests_per_second: 1, decision_wait: "`+wait+`"}}`))
		if !strings.Contains(data, "decision_wait: "+want+"\n") {
			t.Errorf("decision_wait %s: want it written %s in\n%s", wait, want, data)
		}
	}
}
