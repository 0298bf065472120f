package model

import "testing"

func TestModelCaseValue(t *testing.T) {
	dynamo := ModelCase{Lower: []string{"dynamo_frontend_"}, Kept: []string{"dynamo_frontend_model_"}}
	tests := map[string]struct {
		c      ModelCase
		metric string
		want   string
	}{
		"The zero value keeps the name.":                   {ModelCase{}, "vllm:num_requests_running", "Qwen/Qwen3-0.6B"},
		"A metric under a lowering prefix lower-cases it.": {dynamo, "dynamo_frontend_requests_total", "qwen/qwen3-0.6b"},
		"A kept prefix inside it keeps the name.":          {dynamo, "dynamo_frontend_model_total_kv_blocks", "Qwen/Qwen3-0.6B"},
		"A metric under no prefix keeps the name.":         {dynamo, "dynamo_component_gpu_cache_usage_percent", "Qwen/Qwen3-0.6B"},
		"A metric that names another model has none.":      {ModelCase{Other: []string{"nv_trt_llm_"}}, "nv_trt_llm_request_metrics", ""},
	}
	for name, tc := range tests {
		if got := tc.c.Value(tc.metric, "Qwen/Qwen3-0.6B"); got != tc.want {
			t.Errorf("%s %s: %q, want %q", name, tc.metric, got, tc.want)
		}
	}
}
