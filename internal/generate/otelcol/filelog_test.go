package otelcol_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-telemetry/opentelemetry-collector-contrib/connector/countconnector"
	"go.opentelemetry.io/collector/connector/connectortest"
	"go.opentelemetry.io/collector/consumer/consumertest"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// The filelog receiver is proven in two steps, because no release of it
// that the module proxy serves is the release of the count connector
// (docs/traces-logs.md): the nested module in ./filelogproof runs the
// receiver, configured as testdata/filelog/receivers.yaml says, over the
// pod log files below and commits the records it made in
// testdata/filelog/records.json; this package counts those records.

var update = flag.Bool("update", false, "rewrite the pod log files under testdata/filelog/pods")

const filelogDir = "testdata/filelog"

// TestPodLogFilesHoldTheFatalLines keeps the files the receiver reads
// the fatal lines of testenv.FatalLines: each in its own pod's file,
// between an ordinary line and its neighbour, as the container runtime
// writes them (CRI format) under /var/log/pods.
func TestPodLogFilesHoldTheFatalLines(t *testing.T) {
	for i, l := range testenv.FatalLines {
		path := filepath.Join(filelogDir, "pods", podLogPath(i, l))
		want := criLines(ordinaryLine, l.Line, l.Neighbour)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (%v): go test ./internal/generate/otelcol -run TestPodLogFiles -update, then rerun ./filelogproof's test with -update", path, err)
		}
	}
}

// TestFilelogRecordsCountOnceForTheirPod runs the count connector with
// the fragment's conditions over what the filelog receiver read from the
// pod log files: each fatal line must be one count for its pod, and the
// ordinary lines and neighbours none.
func TestFilelogRecordsCountOnceForTheirPod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(filelogDir, "records.json"))
	if err != nil {
		t.Fatal(err)
	}
	logs, err := new(plog.JSONUnmarshaler).UnmarshalLogs(data)
	if err != nil {
		t.Fatal(err)
	}
	f := countconnector.NewFactory()
	cfg := componentConfig(t, build(t, specs["fleet"]), "connectors::count/slogen", f)
	sink := new(consumertest.MetricsSink)
	c, err := f.CreateLogsToMetrics(context.Background(), connectortest.NewNopSettings(f.Type()), cfg, sink)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ConsumeLogs(context.Background(), logs); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for i, l := range testenv.FatalLines {
		want["slogen.log."+l.Event+" "+serviceOf[l.Runtime]+" "+podName(i, l)]++
	}
	got := counts(sink.AllMetrics())
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the filelog receiver's records counted\n%v\nwant\n%v", got, want)
	}
}

// ordinaryLine is a line every runtime's pod writes, and nothing counts.
const ordinaryLine = "INFO 12-02 05:00:00 engine.py:310] Added request chatcmpl-1."

// podName is the pod that writes the i-th fatal line: one of the fleet
// spec's services.
func podName(i int, l testenv.FatalLine) string {
	return fmt.Sprintf("%s-%d", serviceOf[l.Runtime], i)
}

// podLogPath is where the kubelet keeps the pod's log, below
// /var/log/pods: namespace_pod_uid/container/restart.log, which the
// container parser reads the pod and namespace from.
func podLogPath(i int, l testenv.FatalLine) string {
	uid := fmt.Sprintf("00000000-0000-0000-0000-%012d", i)
	return filepath.Join("inference_"+podName(i, l)+"_"+uid, l.Runtime, "0.log")
}

// criLines are lines as containerd writes them, one entry for each line
// of a message: time, stream, full-line tag, text.
func criLines(messages ...string) []byte {
	var b bytes.Buffer
	i := 0
	for _, m := range messages {
		for l := range strings.SplitSeq(m, "\n") {
			fmt.Fprintf(&b, "2026-12-02T05:00:%02d.000000000Z stderr F %s\n", i, l)
			i++
		}
	}
	return b.Bytes()
}
