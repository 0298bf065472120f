package otelcol_test

import (
	"context"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/pdata/pmetric"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// serviceOf is the service of the fleet spec whose runtime writes a line.
var serviceOf = map[string]string{"vllm": "a", "sglang": "b"}

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
	for i, l := range testenv.FatalLines {
		svc := serviceOf[l.Runtime]
		pod := svc + "-" + string(rune('0'+i))
		logs := podLogs(svc, pod, l.Line, l.Neighbour, "INFO 12-02 05:00:00 engine.py:310] Added request chatcmpl-1.")
		if err := c.ConsumeLogs(context.Background(), logs); err != nil {
			t.Fatal(err)
		}
		got := counts(sink.AllMetrics())
		sink.Reset()
		want := map[string]int64{"slogen.log." + l.Event + " " + svc + " " + pod: 1}
		if len(got) != 1 || got["slogen.log."+l.Event+" "+svc+" "+pod] != 1 {
			t.Errorf("%s's line %q counted %v, want %v", svc, l.Line, got, want)
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
