package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const budgetSpec = `package slo
services: chat: {
	runtime: "vllm", selector: {job: "chat", namespace: "ml"}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s"}}
}
`

// fakePrometheus answers instant queries for the recordings budget reads,
// per SLO, from values keyed by what the query reads; it wants token when
// one is set.
func fakePrometheus(t *testing.T, values map[string]map[string]float64, token string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token != "" && r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.URL.Path != "/api/v1/query" {
			http.NotFound(w, r)
			return
		}
		q := r.FormValue("query")
		var result []map[string]any
		for key, bySLO := range values {
			if !strings.Contains(q, key) {
				continue
			}
			for slo, v := range bySLO {
				result = append(result, map[string]any{"metric": map[string]string{"service": "chat", "slo": slo}, "value": []any{1, fmt.Sprint(v)}})
			}
			break
		}
		if result == nil {
			result = []map[string]any{}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"status": "success", "data": map[string]any{"resultType": "vector", "result": result}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// healthyValues are a service at 99.9 % availability and 99.2 % latency,
// a month of recordings, with the latency budget mostly gone.
var healthyValues = map[string]map[string]float64{
	"slo_error_budget_remaining": {"availability": 0.8, "latency": 0.05},
	"slo_period_coverage":        {"availability": 1, "latency": 1},
	"1 - (":                      {"availability": 0.999, "latency": 0.992},
	"rate1h":                     {"availability": 0.001, "latency": 0.02},
	"rate6h":                     {"availability": 0.0005, "latency": 0.01},
	"rate1d":                     {"availability": 0.0005, "latency": 0.01},
}

func runBudget(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runSpec(t, budgetSpec, append([]string{"budget"}, args...)...)
}

// runSpec runs slogen with args and a spec file holding src last.
func runSpec(t *testing.T, src string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	spec := filepath.Join(t.TempDir(), "chat.cue")
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code = run(append(args, spec), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestBudgetPrintsEachSLO(t *testing.T) {
	srv := fakePrometheus(t, healthyValues, "")
	code, out, errOut := runBudget(t, "--prometheus", srv.URL)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"chat     availability  99.5% over 30d  99.900%  80.0%        100% of 30d  recordings  0.20×    0.10×    0.10×",
		"chat     latency       99% over 30d    99.200%  5.0%         100% of 30d  recordings  2.00×    1.00×    1.00×",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestBudgetJSON(t *testing.T) {
	srv := fakePrometheus(t, healthyValues, "")
	code, out, errOut := runBudget(t, "--prometheus", srv.URL, "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Prometheus string
		SLOs       []struct {
			SLO             string
			BudgetRemaining *float64            `json:"budget_remaining"`
			BurnRate        map[string]*float64 `json:"burn_rate"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.Prometheus != srv.URL || len(doc.SLOs) != 2 || *doc.SLOs[1].BudgetRemaining != 0.05 || *doc.SLOs[1].BurnRate["1h"] != 2 {
		t.Errorf("unexpected report:\n%s", out)
	}
}

// An SLO whose period holds no request is quiet, not missing: its
// recordings are NaN, and budget says so without failing.
func TestBudgetOfAQuietSLO(t *testing.T) {
	quiet := map[string]map[string]float64{}
	for k, v := range healthyValues {
		quiet[k] = map[string]float64{"availability": v["availability"], "latency": math.NaN()}
	}
	srv := fakePrometheus(t, quiet, "")
	code, out, errOut := runBudget(t, "--prometheus", srv.URL, "--min-remaining", "0.1")
	if code != 0 || !strings.Contains(out, "latency       99% over 30d    no requests  no requests") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
}

// A deploy pipeline holds a rollout on exit 1, and on nothing else.
func TestBudgetMinRemainingGatesRollouts(t *testing.T) {
	srv := fakePrometheus(t, healthyValues, "")
	if code, _, errOut := runBudget(t, "--prometheus", srv.URL, "--min-remaining", "0.1"); code != 1 || !strings.Contains(errOut, "1 SLO(s) have less than 10% of their error budget left, first chat/latency") {
		t.Errorf("exit %d, want 1 naming chat/latency: %s", code, errOut)
	}
	if code, _, errOut := runBudget(t, "--prometheus", srv.URL, "--min-remaining", "0.01"); code != 0 {
		t.Errorf("exit %d with every SLO above 1%%: %s", code, errOut)
	}
}

func TestBudgetErrorsSayWhichServerAndWhy(t *testing.T) {
	empty := fakePrometheus(t, map[string]map[string]float64{}, "")
	guarded := fakePrometheus(t, healthyValues, "s3cret")
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no recordings", []string{"--prometheus", empty.URL}, 3, "Prometheus at " + empty.URL + ": no data for [chat/availability chat/latency]: no slogen:slo_error_budget_remaining:ratio series. Were the rules deployed"},
		{"the query to try names the service", []string{"--prometheus", empty.URL}, 3, `Query slogen:slo_requests:rate5m{service="chat"}: if it is empty`},
		{"wrong token", []string{"--prometheus", guarded.URL, "--bearer-token-file", token}, 3, "Prometheus at " + guarded.URL + " refused the credentials (401 Unauthorized): check --bearer-token-file"},
		{"unreachable", []string{"--prometheus", closed.URL}, 3, "cannot reach Prometheus at " + closed.URL},
		{"not a URL", []string{"--prometheus", "prometheus:9090"}, 2, `--prometheus "prometheus:9090": give the server's URL, e.g. http://prometheus:9090`},
		{"bad format", []string{"--prometheus", empty.URL, "--format", "yaml"}, 2, `--format "yaml": use table or json`},
		{"bad share", []string{"--prometheus", empty.URL, "--min-remaining", "10"}, 2, "--min-remaining 10: give a share of the budget between 0 and 1"},
		{"missing token file", []string{"--prometheus", guarded.URL, "--bearer-token-file", token + ".gone"}, 3, "--bearer-token-file: open"},
	}
	for _, c := range cases {
		code, _, errOut := runBudget(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", c.name, code, c.code, c.want, errOut)
		}
	}
}

func TestBudgetBadSpecExits2(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"budget", "--prometheus", "http://localhost:9", "nosuch.cue"}, &out, &errOut); code != 2 {
		t.Errorf("exit %d, want 2: %s", code, errOut.String())
	}
}

// budget writes nothing, so its spec errors do not say that nothing was
// written.
func TestBudgetSpecProblemsSayNothingOfWriting(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.cue")
	if err := os.WriteFile(bad, []byte(`services: chat: {runtime: "vllm", selector: {job: "x"}, slos: availability: objective: 101}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"budget", "--prometheus", "http://localhost:9", bad}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "problem(s) in the spec") || strings.Contains(errOut.String(), "written") {
		t.Errorf("exit %d, want 2 and no word of writing:\n%s", code, errOut.String())
	}
}
