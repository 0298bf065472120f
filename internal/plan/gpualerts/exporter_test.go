package gpualerts_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/testenv"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// One dcgm-exporter down raises GPUExporterDown only for the services
// whose GPUs it served: chat-llama's GPUs are on node b, so node a's
// exporter going down leaves it quiet, and node b's pages it.
const exporterTests = `rule_files: [gpu-rules.yaml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
      - series: 'up{job="dcgm-exporter",instance="a:9400"}'
        values: 1x10 0x30
      - series: 'up{job="dcgm-exporter",instance="b:9400"}'
        values: 1x40
      - series: 'DCGM_FI_DEV_FB_USED{job="dcgm-exporter",instance="b:9400",exported_namespace="inference",exported_pod="chat-llama-0",gpu="0"}'
        values: 1000x40
    alert_rule_test:
      - {eval_time: 30m, alertname: GPUExporterDown, exp_alerts: []}
  - interval: 1m
    input_series:
      - series: 'up{job="dcgm-exporter",instance="b:9400"}'
        values: 1x10 0x30
      - series: 'DCGM_FI_DEV_FB_USED{job="dcgm-exporter",instance="b:9400",exported_namespace="inference",exported_pod="chat-llama-0",gpu="0"}'
        values: 1000x40
    alert_rule_test:
      - eval_time: 30m
        alertname: GPUExporterDown
        exp_alerts:
          - exp_labels: {service: chat-llama, severity: warning, team: ml-platform}
            exp_annotations: {description: %q, runbook_url: %q, summary: %q}
`

func TestExporterDownIsTheServicesOwn(t *testing.T) {
	svc := fixture(t, "vllm")
	dir := t.TempDir()
	f, err := rules.Marshal(rules.File{Groups: gpualerts.Build(gpualerts.NewPlan(svc))})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gpu-rules.yaml"), f, 0o644); err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(dir, "exporter_test.yaml")
	var down gpualerts.Alert
	for _, a := range gpualerts.NewPlan(svc).Alerts {
		if a.Name == gpualerts.ExporterDown {
			down = a
		}
	}
	an := down.Annotations
	if err := os.WriteFile(test, []byte(fmt.Sprintf(exporterTests, an["description"], an["runbook_url"], an["summary"])), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &out, test); failed > 0 || err != nil {
		t.Errorf("%d failed (%v):\n%s", failed, err, out.String())
	}
	if out, err := exec.Command(testenv.Tool(t, "promtool"), "test", "rules", test).CombinedOutput(); err != nil {
		t.Errorf("promtool 2.42: %v\n%s", err, out)
	}
}
