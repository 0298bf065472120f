package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	pmodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// backfilledPrometheus runs Prometheus 2.42 on the history of
// init_history_test.go.
func backfilledPrometheus(t *testing.T, now time.Time) *testenv.Prometheus {
	t.Helper()
	promtool := testenv.Tool(t, "promtool")
	dir := t.TempDir()
	om := filepath.Join(dir, "history.om")
	if err := os.WriteFile(om, []byte(openMetrics(now)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", "--max-block-duration=24h", om, filepath.Join(dir, "data")).CombinedOutput(); err != nil {
		t.Fatalf("backfill: %v\n%s", err, out)
	}
	return testenv.StartPrometheus(t, dir, "global: {}\n")
}

// Init against a Prometheus holding two runtimes' history and their GPUs
// writes a spec that builds without a warning, whose SLOs that history
// meets, each threshold a boundary the exporter writes.
func TestInitProposesWhatTheHistoryMet(t *testing.T) {
	now := time.Now()
	prom := backfilledPrometheus(t, now)
	dir := t.TempDir()
	file := filepath.Join(dir, "inference.cue")
	var stdout, stderr bytes.Buffer
	if code := run([]string{"init", "--prometheus", prom.URL, file}, &stdout, &stderr); code != exitOK {
		t.Fatalf("init exited %d:\n%s", code, &stderr)
	}
	written, _ := os.ReadFile(file)
	t.Logf("init wrote:\n%s\n%s", written, &stderr)
	for _, want := range []string{"init: vllm-chat: reading 28 days of ttft history", "init: wrote 2 service(s) to " + file} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, &stderr)
		}
	}
	stderr.Reset()
	if code := run([]string{"build", "--out", filepath.Join(dir, "out"), file}, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("build exited %d, or warned:\n%s\n%s", code, &stderr, written)
	}
	res, err := spec.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, svc := range res.Spec.Services {
		for _, slo := range svc.SLOs {
			obj, _ := slo.Objective.Float64()
			got[svc.Name+"/"+slo.Name] = fmt.Sprintf("%g %s", obj*100, threshold(slo))
		}
	}
	want := map[string]string{
		"vllm-chat/availability":   "99.95 ",
		"vllm-chat/latency":        "99 8s",
		"vllm-chat/ttft":           "99.5 500ms",
		"sglang-code/availability": "99 ",
		"sglang-code/ttft":         "99 800ms",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("proposed %v, want %v\n%s", got, want, written)
	}
	for _, s := range []string{
		`gpu: {product: "NVIDIA H100 80GB HBM3", count: 2}`,
		`gpu: {product: "NVIDIA L40S", count: 1}`,
		`latency: [1, 2, 4, 8, 16, 32, 64]`,
		`"meta-llama/Llama-3.1-8B-Instruct"`,
	} {
		if !bytes.Contains(written, []byte(s)) {
			t.Errorf("the spec lacks %s:\n%s", s, written)
		}
	}
	checkMet(t, prom.URL, now)

	// - prints the spec instead, and the progress stays on stderr.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"init", "--prometheus", prom.URL, "-"}, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), `services: "sglang-code": {`) || strings.Contains(stdout.String(), "init: ") {
		t.Errorf("init - exited %d:\n%s\n%s", code, &stdout, &stderr)
	}
}

func threshold(slo model.SLO) string {
	if slo.Threshold == 0 {
		return ""
	}
	return slo.Threshold.String()
}

// checkMet asks Prometheus itself, over the whole history in one window,
// whether the service met each proposed SLO.
func checkMet(t *testing.T, server string, now time.Time) {
	t.Helper()
	client, err := api.NewClient(api.Config{Address: server})
	if err != nil {
		t.Fatal(err)
	}
	const w = "[4d]"
	vllm := `{job="vllm-chat",namespace="inference",model_name="` + vllmModel + `"}`
	sg := `{job="sglang-code",namespace="inference",model_name="` + sglangModel + `"}`
	met := map[string]struct {
		query     string
		objective float64
	}{
		"vllm-chat/availability":   {`1 - sum(increase(http_requests_total{job="vllm-chat",status="5xx"}` + w + `)) / sum(increase(http_requests_total{job="vllm-chat"}` + w + `))`, 0.9995},
		"vllm-chat/latency":        {`sum(increase(vllm:e2e_request_latency_seconds_bucket{le="8.0",job="vllm-chat"}` + w + `)) / sum(increase(vllm:e2e_request_latency_seconds_count` + vllm + w + `))`, 0.99},
		"vllm-chat/ttft":           {`sum(increase(vllm:time_to_first_token_seconds_bucket{le="0.5",job="vllm-chat"}` + w + `)) / sum(increase(vllm:time_to_first_token_seconds_count` + vllm + w + `))`, 0.995},
		"sglang-code/availability": {`1 - sum(increase(sglang:num_aborted_requests_total` + sg + w + `)) / sum(increase(sglang:num_requests_total` + sg + w + `))`, 0.99},
		"sglang-code/ttft":         {`sum(increase(sglang:time_to_first_token_seconds_bucket{le="0.8",job="sglang-code"}` + w + `)) / sum(increase(sglang:time_to_first_token_seconds_count` + sg + w + `))`, 0.99},
	}
	for slo, c := range met {
		v, _, _, err := v1.NewAPI(client).Query(context.Background(), c.query, now)
		vec, _ := v.(pmodel.Vector)
		if err != nil || len(vec) != 1 {
			t.Errorf("%s: %v %v", slo, vec, err)
			continue
		}
		if got := float64(vec[0].Value); got < c.objective {
			t.Errorf("%s: the history met %.5f, under the proposed %g", slo, got, c.objective)
		}
	}
}

// Init exits as budget does: 3 for a server it cannot read or that holds
// nothing of a runtime slogen knows, 2 for a bad command line, and 1,
// writing nothing, for a file that exists.
func TestInitErrorsSayWhichServerAndWhy(t *testing.T) {
	empty := fakePrometheus(t, map[string]map[string]float64{}, "")
	guarded := fakePrometheus(t, map[string]map[string]float64{}, "s3cret")
	dir := t.TempDir()
	token := filepath.Join(dir, "token")
	if err := os.WriteFile(token, []byte("wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "existing.cue")
	if err := os.WriteFile(existing, []byte("// mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	out := filepath.Join(dir, "new.cue")
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"empty", []string{"--prometheus", empty.URL, out}, 3, "Prometheus at " + empty.URL + ": no series of any runtime slogen knows: looked for "},
		{"wrong token", []string{"--prometheus", guarded.URL, "--bearer-token-file", token, out}, 3, "Prometheus at " + guarded.URL + " refused the credentials (401 Unauthorized): check --bearer-token-file"},
		{"unreachable", []string{"--prometheus", closed.URL, out}, 3, "cannot reach Prometheus at " + closed.URL},
		{"not a URL", []string{"--prometheus", "prometheus:9090", out}, 2, `--prometheus "prometheus:9090": give the server's URL, e.g. http://prometheus:9090`},
		{"no file", []string{"--prometheus", empty.URL}, 2, "accepts 1 arg(s), received 0"},
		{"existing file", []string{"--prometheus", empty.URL, existing}, 1, "refusing to overwrite " + existing + ": init writes only a new file"},
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"init"}, c.args...), &stdout, &stderr)
		if code != c.code || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", c.name, code, c.code, c.want, &stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%s: wrote %s", c.name, out)
		}
	}
	if mine, _ := os.ReadFile(existing); string(mine) != "// mine\n" {
		t.Errorf("init changed %s: %q", existing, mine)
	}
}
