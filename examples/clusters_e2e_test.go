package examples_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// The two-cluster example, as its files are committed.
const (
	clustersDir     = "fleet/generated/chat-clusters"
	clustersService = "chat-clusters"
	clustersJob     = "vllm-chat-clusters"
)

// TestTwoClustersPageThroughAGlobalRuler runs the example that spans
// clusters on real Prometheus servers: two "clusters", each with
// external_labels {cluster: a} or {cluster: b}, scrape a fake vLLM of
// their own, run rules.yaml and remote-write the recordings to a third,
// started with --web.enable-remote-write-receiver, that runs
// rules.global.yaml. While both are healthy the global ruler is quiet;
// when every request fails in cluster a, half the traffic, the global
// fast page fires, without a cluster label, naming a in its description.
// Scrapes and evaluations run every second, so the hour-long window holds
// seconds of data and the page comes within seconds.
func TestTwoClustersPageThroughAGlobalRuler(t *testing.T) {
	began := time.Now()
	root := t.TempDir()
	global := startRuler(t, filepath.Join(root, "global"), "", "rule_files: [rules.global.yaml]\n", "rules.global.yaml", "--web.enable-remote-write-receiver")
	vllm := map[string]*fakeVLLM{}
	for _, c := range []string{"a", "b"} {
		vllm[c] = newFakeVLLM(t)
		startRuler(t, filepath.Join(root, c), "external_labels: {cluster: "+c+"}", clusterConfig(vllm[c].addr, global.URL), "rules.yaml")
	}
	api := promAPI(t, global.URL)

	// Both clusters' recordings reach the global ruler, which stays quiet.
	waitFor(t, api, "both clusters' recordings", fmt.Sprintf(`count(slogen:slo_requests:rate5m{service=%q,slo="availability"}) == 2`, clustersService), 60*time.Second)
	time.Sleep(5 * time.Second)
	if firing := alerts(t, api, ""); len(firing) > 0 {
		t.Fatalf("healthy clusters, yet the global ruler alerts: %v", firing)
	}

	vllm["a"].failing.Store(true)
	var page model.LabelSet
	waitFor(t, api, "the global page", fmt.Sprintf(`ALERTS{alertname="SLOErrorBudgetBurn",alertstate="firing",service=%q,slo="availability",tier="page"}`, clustersService), 90*time.Second)
	for _, a := range alerts(t, api, "page") {
		page = a.Labels
		if _, ok := page["cluster"]; ok {
			t.Errorf("the global page carries a cluster label: %v", page)
		}
		if !strings.Contains(string(a.Annotations["description"]), "in the last 30m: a.") {
			t.Errorf("the page's description does not name cluster a alone: %s", a.Annotations["description"])
		}
	}
	if page == nil {
		t.Fatal("ALERTS has the page, the alerts API does not")
	}
	t.Logf("the global page fired, naming cluster a; the run took %s", time.Since(began).Round(time.Second))
}

// startRuler starts a Prometheus in dir with config and the example's
// rule file, scraping and evaluating every second; globals go in its
// global block.
func startRuler(t *testing.T, dir, globals, config, ruleFile string, flags ...string) *testenv.Prometheus {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rules, err := os.ReadFile(filepath.Join(clustersDir, ruleFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ruleFile), rules, 0o644); err != nil {
		t.Fatal(err)
	}
	return testenv.StartPrometheus(t, dir, "global: {scrape_interval: 1s, evaluation_interval: 1s, "+globals+"}\n"+config, flags...)
}

// clusterConfig is one cluster's Prometheus: it scrapes its vLLM as the
// example's selector expects, runs rules.yaml, and remote-writes only
// slogen's recordings; its external label names the cluster.
func clusterConfig(target, global string) string {
	return fmt.Sprintf(`rule_files: [rules.yaml]
scrape_configs:
  - job_name: %s
    static_configs: [{targets: [%q], labels: {namespace: inference}}]
remote_write:
  - url: %s/api/v1/write
    queue_config: {batch_send_deadline: 1s, min_backoff: 100ms, max_backoff: 1s}
    write_relabel_configs: [{source_labels: [__name__], regex: "slogen:.*", action: keep}]
`, clustersJob, target, global)
}

// fakeVLLM serves vLLM's request counter and time-to-first-token
// histogram at 20 requests a second, every one failing once failing is
// set.
type fakeVLLM struct {
	addr    string
	failing atomic.Bool
}

func newFakeVLLM(t *testing.T) *fakeVLLM {
	f := &fakeVLLM{}
	var mu sync.Mutex
	var ok, failed float64
	last := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		now := time.Now()
		if n := 20 * now.Sub(last).Seconds(); f.failing.Load() {
			failed += n
		} else {
			ok += n
		}
		last = now
		good, bad := ok, failed
		mu.Unlock()
		const model = `engine="0",model_name="meta-llama/Llama-3.1-8B-Instruct"`
		fmt.Fprintf(w, "# TYPE http_requests_total counter\n")
		fmt.Fprintf(w, "http_requests_total{handler=\"/v1/chat/completions\",method=\"POST\",status=\"2xx\"} %g\n", good)
		fmt.Fprintf(w, "http_requests_total{handler=\"/v1/chat/completions\",method=\"POST\",status=\"5xx\"} %g\n", bad)
		// Failed requests never reach a first token.
		fmt.Fprintf(w, "# TYPE vllm:time_to_first_token_seconds histogram\n")
		fmt.Fprintf(w, "vllm:time_to_first_token_seconds_bucket{%s,le=\"1.0\"} %g\n", model, good)
		fmt.Fprintf(w, "vllm:time_to_first_token_seconds_bucket{%s,le=\"+Inf\"} %g\n", model, good)
		fmt.Fprintf(w, "vllm:time_to_first_token_seconds_count{%s} %g\n", model, good)
		fmt.Fprintf(w, "vllm:time_to_first_token_seconds_sum{%s} %g\n", model, 0.2*good)
	}))
	t.Cleanup(srv.Close)
	f.addr = strings.TrimPrefix(srv.URL, "http://")
	return f
}

func promAPI(t *testing.T, url string) v1.API {
	t.Helper()
	c, err := api.NewClient(api.Config{Address: url})
	if err != nil {
		t.Fatal(err)
	}
	return v1.NewAPI(c)
}

// waitFor polls until query returns a sample, or fails the test.
func waitFor(t *testing.T, a v1.API, what, query string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		v, _, _, err := a.Query(context.Background(), query, time.Now())
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if vec, ok := v.(model.Vector); ok && len(vec) > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s (%s)", what, limit, query)
		}
		time.Sleep(time.Second)
	}
}

// alerts are the global ruler's firing alerts of the example, of a tier
// when one is given.
func alerts(t *testing.T, a v1.API, tier string) []v1.Alert {
	t.Helper()
	res, err := a.Alerts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []v1.Alert
	for _, al := range res.Alerts {
		if al.State == v1.AlertStateFiring && string(al.Labels["service"]) == clustersService && (tier == "" || string(al.Labels["tier"]) == tier) {
			out = append(out, al)
		}
	}
	return out
}
