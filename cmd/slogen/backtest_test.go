package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeHistory answers range-selector queries with a vLLM service's steady
// request counters (1000 a minute, none failing) sampled every minute, or
// with nothing when empty.
func fakeHistory(t *testing.T, empty bool) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.FormValue("query")
		at, _ := strconv.ParseFloat(r.FormValue("time"), 64)
		open, closing := strings.LastIndex(q, "["), strings.LastIndex(q, "s]")
		secs, _ := strconv.Atoi(q[open+1 : closing])
		result := []map[string]any{}
		if !empty && strings.HasPrefix(q, "http_requests_total{") {
			var values [][2]any
			for ts := int64(at) - int64(secs) + 60; ts <= int64(at); ts += 60 {
				values = append(values, [2]any{ts, fmt.Sprint(float64(ts/60) * 1000)})
			}
			result = append(result, map[string]any{"metric": map[string]string{"__name__": "http_requests_total", "job": "chat", "namespace": "ml", "status": "2xx"}, "values": values})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "matrix", "result": result}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

const backtestSpec = `package slo
services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: availability: objective: 99.5}
`

func TestBacktestOfACalmDay(t *testing.T) {
	srv := fakeHistory(t, false)
	plot := filepath.Join(t.TempDir(), "calm.svg")
	code, out, errOut := runSpec(t, backtestSpec, "backtest", "--prometheus", srv.URL, "--from", "1d", "--format", "json", "--plot", plot)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Alerts []any
		SLOs   []struct {
			SLO   string
			Pages int
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if len(doc.Alerts) != 0 || len(doc.SLOs) != 1 || doc.SLOs[0].SLO != "availability" {
		t.Errorf("a calm day: %s", out)
	}
	if svg, err := os.ReadFile(plot); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Errorf("no plot: %v", err)
	}
	for _, want := range []string{"chat: fetching 1 series selector(s) from " + srv.URL, "chat: fetched 100%", "chat: evaluated 100% of the rules", "chat/availability: plotted to " + plot} {
		if !strings.Contains(errOut, want) {
			t.Errorf("progress lacks %q:\n%s", want, errOut)
		}
	}
}

// With --gpu the GPU alerts are backtested too: over a history without
// dcgm-exporter's series, GPUExporterDown fires, as it would have.
func TestBacktestGPUAlerts(t *testing.T) {
	srv := fakeHistory(t, false)
	spec := `package slo
services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, gpu: {product: "NVIDIA L4", count: 1}, slos: availability: objective: 99.5}
`
	code, out, errOut := runSpec(t, spec, "backtest", "--prometheus", srv.URL, "--from", "1d", "--gpu")
	if code != 0 || !strings.Contains(out, "GPUExporterDown") {
		t.Errorf("exit %d, want GPUExporterDown reported:\n%s\n%s", code, out, errOut)
	}
}

func TestBacktestErrors(t *testing.T) {
	empty := fakeHistory(t, true)
	guarded := fakePrometheus(t, nil, "s3cret")
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("wrong"), 0o600); err != nil {
		t.Fatal(err)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"bad from", []string{"--from", "last week"}, 2, `--from "last week": give a duration back from now, such as 7d or 36h, or an RFC 3339 time`},
		{"from after to", []string{"--from", "1d", "--to", "2d"}, 2, "is not before --to"},
		{"future", []string{"--to", future, "--from", "1d"}, 2, "is in the future"},
		{"too long", []string{"--from", "60d"}, 2, "longer than 31 days"},
		{"interval", []string{"--evaluation-interval", "45s"}, 2, "--evaluation-interval 45s: give your Prometheus's evaluation_interval"},
		{"unreachable", []string{"--prometheus", closed.URL}, 3, "cannot reach Prometheus at " + closed.URL},
		{"no series", []string{"--prometheus", empty.URL}, 3, "Prometheus at " + empty.URL + " holds none of the series chat's rules read"},
		{"wrong token", []string{"--prometheus", guarded.URL, "--bearer-token-file", token}, 3, "Prometheus at " + guarded.URL + " refused the credentials (401 Unauthorized)"},
		{"unwritable plot", []string{"--plot", "/nonexistent/dir/p.svg"}, 2, "--plot: cannot write in /nonexistent/dir"},
	}
	for _, c := range cases {
		args := append([]string{"backtest", "--prometheus", empty.URL}, c.args...)
		code, _, errOut := runSpec(t, backtestSpec, args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", c.name, code, c.code, c.want, errOut)
		}
	}
}
