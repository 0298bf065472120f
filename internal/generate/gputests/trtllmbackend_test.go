package gputests

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Triton reads its TensorRT-LLM backend's gauges whatever model they
// name (the backend's own, not the model clients call): with the backend,
// a full KV cache and requests pending on an engine that runs none fire
// KVCacheHigh and InferenceEngineStalled; a Triton without the backend
// has no such series, and neither alert fires however long requests wait.
func TestTritonReadsItsTensorRTLLMBackendsGauges(t *testing.T) {
	plan := fixture(t, "triton")
	target := `instance="gpu-node-1:8002",job="triton"`
	pending := testfile.Series{Series: `nv_inference_pending_request_count{` + target + `,model="resnet50",version="1"}`, Values: "6x30"}
	firing := func(alert string, n int) testfile.ExprTest {
		e := testfile.ExprTest{
			Expr:     pql.Print(pql.Count(pql.Metric("ALERTS", pql.Eq("alertname", alert), pql.Eq("alertstate", "firing")))),
			EvalTime: "20m",
		}
		if n > 0 {
			e.ExpSamples = []testfile.ExpSample{{Labels: "{}", Value: int64(n)}}
		}
		return e
	}
	tests := []testfile.Test{{
		Name:     "the backend's KV cache is full and its engine runs nothing",
		Interval: "1m",
		InputSeries: []testfile.Series{pending,
			{Series: `nv_trt_llm_request_metrics{` + target + `,model="tensorrt_llm",request_type="active",version="1"}`, Values: "0x30"},
			{Series: `nv_trt_llm_kv_cache_block_metrics{` + target + `,kv_cache_block_type="fraction",model="tensorrt_llm",version="1"}`, Values: "0.99x30"},
		},
		ExprTests: []testfile.ExprTest{firing(gpualerts.KVCacheHigh, 1), firing(gpualerts.EngineStalled, 1)},
	}, {
		Name:        "no TensorRT-LLM backend",
		Interval:    "1m",
		InputSeries: []testfile.Series{pending},
		ExprTests:   []testfile.ExprTest{firing(gpualerts.KVCacheHigh, 0), firing(gpualerts.EngineStalled, 0)},
	}}
	passesBoth(t, writeFiles(t, ruleGroups(plan), testFile{"backend_test.yaml", EvaluationInterval, tests}))
}
