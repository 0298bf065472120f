package otelcol_test

import (
	"context"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
)

// jsonLines are fatal lines as the runtimes' JSON log formats write
// them, one JSON object a line: TGI's launcher with --json-output
// (tracing-subscriber's json(), the shard's text under fields.message;
// huggingface/text-generation-inference launcher/src/main.rs at
// db931fcf), and vLLM's OTelJSONFormatter (body, exception; vllm
// vllm/logging_utils/oteljson.py at 49f7bd23). The body stays the line
// as written, a string, so the conditions find the text inside it.
var jsonLines = []struct{ spec, event, line string }{
	{"tgi", "cuda_oom", `{"timestamp":"2026-12-02T07:00:00.000000Z","level":"ERROR","fields":{"message":"Method Warmup encountered an error.\nTraceback (most recent call last):\n  File \"/usr/src/server/text_generation_server/models/flash_causal_lm.py\", line 1560, in warmup\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB."},"target":"text_generation_launcher"}`},
	{"vllm", "vllm_engine_dead", `{"timestamp": "2026-12-02T07:00:00.000000Z", "severity_text": "ERROR", "severity_number": 17, "body": "AsyncLLM output_handler failed.", "logger": "vllm.v1.engine.async_llm", "service.name": "chat", "exception": "Traceback (most recent call last):\nvllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause."}`},
}

// TestFatalLinesCountInsideJSONLogLines: a fatal line a runtime wrote as
// JSON counts once for its pod, like the plain line.
func TestFatalLinesCountInsideJSONLogLines(t *testing.T) {
	for _, l := range jsonLines {
		f := countconnector.NewFactory()
		sink := new(consumertest.MetricsSink)
		c, err := f.CreateLogsToMetrics(context.Background(), connectortest.NewNopSettings(f.Type()), componentConfig(t, build(t, specs[l.spec]), "connectors::count/slogen", f), sink)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.ConsumeLogs(context.Background(), podLogs("chat", "chat-0", l.line)); err != nil {
			t.Fatal(err)
		}
		key := "slogen.log." + l.event + " chat chat-0"
		if got := counts(sink.AllMetrics()); len(got) != 1 || got[key] != 1 {
			t.Errorf("%s's JSON line counted %v, want %s once", l.spec, got, key)
		}
	}
}
