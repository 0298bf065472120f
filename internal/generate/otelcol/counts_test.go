package otelcol_test

import (
	"context"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"
)

// fatalLines are each event's line as the project's source writes it
// (vLLM's kv_cache_utils.py and v1/engine/exceptions.py, SGLang's
// scheduler.py and its prefill allocation, PyTorch's
// CUDACachingAllocator.cpp and ProcessGroupNCCL.cpp), by the service
// whose runtime writes it in the fleet spec.
var fatalLines = []struct{ service, event, line string }{
	{"a", "vllm_no_kv_cache_memory", "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine."},
	{"a", "vllm_engine_dead", "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."},
	{"a", "cuda_oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free."},
	{"a", "nccl_watchdog_timeout", "[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=131072000, NumelOut=131072000, Timeout(ms)=600000) ran for 600081 milliseconds before timing out."},
	{"b", "sglang_kv_cache_full", "KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.9998 -> 1.0000"},
	{"b", "sglang_prefill_oom", "Prefill out of memory. Try to lower your batch size.\nTry to allocate 4096 tokens."},
	{"b", "cuda_oom", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB."},
}

// TestEachFatalLineCountsOnceForItsPod runs the Collector's count
// connector with the fragment's conditions: each fatal line, sent from
// its own pod, must be one count for that pod, and ordinary lines none.
func TestEachFatalLineCountsOnceForItsPod(t *testing.T) {
	data := build(t, specs["fleet"])
	f := countconnector.NewFactory()
	cfg := componentConfig(t, data, "connectors::count/slogen", f)
	sink := new(consumertest.MetricsSink)
	c, err := f.CreateLogsToMetrics(context.Background(), connectortest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range fatalLines {
		pod := l.service + "-" + string(rune('0'+i))
		logs := podLogs(l.service, pod, l.line, "INFO 12-02 05:00:00 engine.py:310] Added request chatcmpl-1.")
		if err := c.ConsumeLogs(context.Background(), logs); err != nil {
			t.Fatal(err)
		}
		got := counts(sink.AllMetrics())
		sink.Reset()
		want := map[string]int64{"slogen.log." + l.event + " " + l.service + " " + pod: 1}
		if len(got) != 1 || got["slogen.log."+l.event+" "+l.service+" "+pod] != 1 {
			t.Errorf("%s's line %q counted %v, want %v", l.service, l.line, got, want)
		}
	}
}

// podLogs are lines of one pod of a service, as a filelog receiver's
// container parser and the resource setting label them.
func podLogs(service, pod string, lines ...string) plog.Logs {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	rl.Resource().Attributes().PutStr("service.name", service)
	rl.Resource().Attributes().PutStr("k8s.namespace.name", "inference")
	rl.Resource().Attributes().PutStr("k8s.pod.name", pod)
	recs := rl.ScopeLogs().AppendEmpty().LogRecords()
	for _, l := range lines {
		recs.AppendEmpty().Body().SetStr(l)
	}
	return ld
}

// counts sums the data points by metric, service and pod.
func counts(mds []pmetric.Metrics) map[string]int64 {
	out := map[string]int64{}
	for _, md := range mds {
		for _, rm := range md.ResourceMetrics().All() {
			for _, sm := range rm.ScopeMetrics().All() {
				for _, m := range sm.Metrics().All() {
					for _, dp := range m.Sum().DataPoints().All() {
						svc, _ := dp.Attributes().Get("service.name")
						pod, _ := dp.Attributes().Get("k8s.pod.name")
						out[m.Name()+" "+svc.Str()+" "+pod.Str()] += dp.IntValue()
					}
				}
			}
		}
	}
	return out
}
