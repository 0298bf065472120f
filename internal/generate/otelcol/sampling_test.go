package otelcol_test

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/open-telemetry/opentelemetry-collector-contrib/processor/tailsamplingprocessor"
	"go.opentelemetry.io/collector/component/componenttest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/processor/processortest"
)

// request is one request's span as vLLM writes it: latencies as float
// seconds under gen_ai.latency.*.
type request struct {
	ttft, e2e float64
	failed    bool
}

// TestTailSamplingKeepsWhatBrokeTheSLO runs the Collector's tail_sampling
// processor with the policies slogen wrote for a vLLM service with a 1s
// TTFT SLO and a 30s end-to-end one, at a 1% floor.
func TestTailSamplingKeepsWhatBrokeTheSLO(t *testing.T) {
	data := build(t, specs["vllm"])
	f := tailsamplingprocessor.NewFactory()
	cfg := componentConfig(t, data, "processors::tail_sampling/slogen", f).(*tailsamplingprocessor.Config)
	cfg.DecisionWait = time.Second // the policies are under test, not the wait
	sink := new(consumertest.TracesSink)
	p, err := f.CreateTraces(context.Background(), processortest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Start(context.Background(), componenttest.NewNopHost()); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Shutdown(context.Background()) }()

	const fast = 2000
	reqs := map[uint64]request{
		1: {ttft: 1.5, e2e: 20},               // a slow first token on a 20s stream
		2: {ttft: 0.2, e2e: 20, failed: true}, // errored
	}
	for i := range uint64(fast) {
		reqs[1000+i*7919] = request{ttft: 0.2, e2e: 20}
	}
	if err := p.ConsumeTraces(context.Background(), traces(reqs)); err != nil {
		t.Fatal(err)
	}
	kept := waitKept(t, sink, 1, 2)
	if !kept[1] {
		t.Error("the trace whose first token took 1.5s against a 1s SLO was dropped")
	}
	if !kept[2] {
		t.Error("the errored trace was dropped")
	}
	floor := len(kept) - 2
	// 1% of 2000 is 20; the binomial's spread is about 4.4.
	if floor < 5 || floor > 45 {
		t.Errorf("kept %d of %d fast traces, want about 20 (1%%)", floor, fast)
	}
}

// waitKept waits until the traces that must be kept have arrived, and
// two decision ticks more, and returns the IDs of every kept trace.
func waitKept(t *testing.T, sink *consumertest.TracesSink, must ...uint64) map[uint64]bool {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		kept := keptIDs(sink)
		if all(kept, must) {
			time.Sleep(2 * time.Second)
			return keptIDs(sink)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return keptIDs(sink)
}

func all(kept map[uint64]bool, ids []uint64) bool {
	for _, id := range ids {
		if !kept[id] {
			return false
		}
	}
	return true
}

func keptIDs(sink *consumertest.TracesSink) map[uint64]bool {
	kept := map[uint64]bool{}
	for _, td := range sink.AllTraces() {
		for _, rs := range td.ResourceSpans().All() {
			for _, ss := range rs.ScopeSpans().All() {
				for _, s := range ss.Spans().All() {
					id := s.TraceID()
					kept[binary.BigEndian.Uint64(id[8:])] = true
				}
			}
		}
	}
	return kept
}

// traces makes a one-span trace per request of service "chat".
func traces(reqs map[uint64]request) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "chat")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	start := time.Unix(1_700_000_000, 0)
	for id, r := range reqs {
		s := spans.AppendEmpty()
		var tid [16]byte
		binary.BigEndian.PutUint64(tid[8:], id)
		binary.BigEndian.PutUint64(tid[:8], id*0x9e3779b97f4a7c15) // spread the IDs the floor hashes
		s.SetTraceID(pcommon.TraceID(tid))
		s.SetSpanID(pcommon.SpanID([8]byte{1}))
		s.SetName("llm_request")
		s.SetStartTimestamp(pcommon.NewTimestampFromTime(start))
		s.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(r.e2e * float64(time.Second)))))
		s.Attributes().PutDouble("gen_ai.latency.time_to_first_token", r.ttft)
		s.Attributes().PutDouble("gen_ai.latency.e2e", r.e2e)
		if r.failed {
			s.Status().SetCode(ptrace.StatusCodeError)
		}
	}
	return td
}
